/// A JSON value whose objects keep their keys in the order they were written.
///
/// Stint's persisted and printed JSON is canonical: the same value always encodes to the same bytes
/// (no insignificant whitespace, a fixed key order, minimal string escaping, integers without a
/// fraction). Keeping key order in the value, instead of sorting on output, lets every format decide
/// its own order: event envelopes use a fixed order, `WidgetData` uses sorted keys.
public enum JSON: Hashable, Sendable {
    case null
    case bool(Bool)
    case int(Int64)
    case double(Double)
    case string(String)
    case array([JSON])
    case object([JSONField])

    /// An object from key–value pairs, in the given order.
    public static func object(_ pairs: KeyValuePairs<String, JSON>) -> JSON {
        .object(pairs.map { JSONField($0.key, $0.value) })
    }

    /// The member named `key` of an object; nil for a missing key or a non-object.
    public subscript(key: String) -> JSON? {
        guard case .object(let fields) = self else { return nil }
        for field in fields where field.key == key { return field.value }
        return nil
    }

    public var stringValue: String? {
        if case .string(let value) = self { return value }
        return nil
    }

    public var intValue: Int64? {
        switch self {
        case .int(let value): return value
        case .double(let value):
            guard value.rounded() == value, abs(value) < 9_007_199_254_740_992 else { return nil }
            return Int64(value)
        default: return nil
        }
    }

    public var doubleValue: Double? {
        switch self {
        case .int(let value): return Double(value)
        case .double(let value): return value
        default: return nil
        }
    }

    public var boolValue: Bool? {
        if case .bool(let value) = self { return value }
        return nil
    }

    public var arrayValue: [JSON]? {
        if case .array(let value) = self { return value }
        return nil
    }

    public var objectFields: [JSONField]? {
        if case .object(let value) = self { return value }
        return nil
    }

    /// A number of seconds from milliseconds: an integer when whole, else a decimal with up to three digits.
    public static func seconds(milliseconds: Int64) -> JSON {
        milliseconds % 1000 == 0 ? .int(milliseconds / 1000) : .double(Double(milliseconds) / 1000)
    }
}

/// One member of a JSON object.
public struct JSONField: Hashable, Sendable {
    public var key: String
    public var value: JSON

    public init(_ key: String, _ value: JSON) {
        self.key = key
        self.value = value
    }
}

/// Builds an object in a fixed key order, leaving out members whose value is absent.
public struct JSONObjectBuilder {
    public private(set) var fields: [JSONField] = []

    public init() {}

    public mutating func add(_ key: String, _ value: JSON) {
        fields.append(JSONField(key, value))
    }

    public mutating func add(_ key: String, _ value: JSON?) {
        if let value { fields.append(JSONField(key, value)) }
    }

    public mutating func add(_ key: String, _ value: String?) {
        if let value { fields.append(JSONField(key, .string(value))) }
    }

    public var json: JSON { .object(fields) }

    /// The object with its members sorted by key (byte order of the UTF-8 keys).
    public var sortedJSON: JSON {
        .object(fields.sorted { Array($0.key.utf8).lexicographicallyPrecedes(Array($1.key.utf8)) })
    }
}
