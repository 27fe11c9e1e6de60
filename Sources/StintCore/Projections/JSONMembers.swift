/// Typed, path-aware access to the members of a decoded JSON object, for the snapshot decoders.
///
/// A member whose value is `null` counts as absent, as Foundation's `decodeIfPresent` treats it, so a
/// snapshot written by another encoder reads the same. Unknown members are ignored (a newer writer may
/// add some).
struct JSONMembers {
    let json: JSON
    let path: String

    /// Wraps `json`, which must be an object.
    init(_ json: JSON, path: String) throws(ProjectionDecodingError) {
        guard case .object = json else {
            throw ProjectionDecodingError(
                code: .wrongType, path: path,
                message:
                    "\(JSONMembers.describe(path)) must be a JSON object; rewrite the snapshot with `stint publish`")
        }
        self.json = json
        self.path = path
    }

    static func describe(_ path: String) -> String {
        path.isEmpty ? "the snapshot" : "\"\(path)\""
    }

    func memberPath(_ key: String) -> String {
        path.isEmpty ? key : "\(path).\(key)"
    }

    func wrongType(_ key: String, _ expected: String) -> ProjectionDecodingError {
        ProjectionDecodingError(
            code: .wrongType, path: memberPath(key),
            message: "\"\(memberPath(key))\" must be \(expected); rewrite the snapshot with `stint publish`")
    }

    func invalid(_ key: String, _ expected: String) -> ProjectionDecodingError {
        ProjectionDecodingError(
            code: .invalidValue, path: memberPath(key),
            message: "\"\(memberPath(key))\" must be \(expected); rewrite the snapshot with `stint publish`")
    }

    /// The member's value, or nil when it is missing or `null`.
    func optional(_ key: String) -> JSON? {
        guard let value = json[key], value != .null else { return nil }
        return value
    }

    func required(_ key: String) throws(ProjectionDecodingError) -> JSON {
        guard let value = optional(key) else {
            throw ProjectionDecodingError(
                code: .missingMember, path: memberPath(key),
                message: "\(JSONMembers.describe(path)) has no \"\(key)\"; rewrite the snapshot with `stint publish`")
        }
        return value
    }

    func optionalString(_ key: String) throws(ProjectionDecodingError) -> String? {
        guard let value = optional(key) else { return nil }
        return try string(key, value)
    }

    func string(_ key: String) throws(ProjectionDecodingError) -> String {
        try string(key, required(key))
    }

    private func string(_ key: String, _ value: JSON) throws(ProjectionDecodingError) -> String {
        guard let text = value.stringValue else { throw wrongType(key, "a string") }
        return text
    }

    func optionalEntityID(_ key: String) throws(ProjectionDecodingError) -> EntityID? {
        guard let value = optional(key) else { return nil }
        return try entityID(key, value)
    }

    func entityID(_ key: String) throws(ProjectionDecodingError) -> EntityID {
        try entityID(key, required(key))
    }

    private func entityID(_ key: String, _ value: JSON) throws(ProjectionDecodingError) -> EntityID {
        guard let id = EntityID(try string(key, value)) else {
            throw invalid(key, "a UUID such as 3f2a9c1e-0b7d-4e51-9a2c-1d3e5f7a9b0c")
        }
        return id
    }

    /// An instant written as ISO 8601 with `Z` or an offset; the fraction is optional (Foundation's
    /// `.iso8601` strategy writes none) and digits finer than a millisecond are truncated.
    func optionalInstant(_ key: String) throws(ProjectionDecodingError) -> Instant? {
        guard let value = optional(key) else { return nil }
        return try instant(key, value)
    }

    func instant(_ key: String) throws(ProjectionDecodingError) -> Instant {
        try instant(key, required(key))
    }

    private func instant(_ key: String, _ value: JSON) throws(ProjectionDecodingError) -> Instant {
        guard case .instant(let instant) = ISO8601Timestamp.parse(try string(key, value)) else {
            throw invalid(key, "an ISO 8601 instant with a zone, such as 2026-11-29T13:07:09.123Z")
        }
        return instant
    }

    /// A non-negative integer count.
    func count(_ key: String) throws(ProjectionDecodingError) -> Int {
        let value = try required(key)
        guard let number = value.intValue else {
            throw value.doubleValue == nil ? wrongType(key, "an integer") : invalid(key, "a whole number")
        }
        guard number >= 0, number <= Int64(Int32.max) else { throw invalid(key, "a count of at least 0") }
        return Int(number)
    }

    /// The largest number of seconds a duration may have, so that its milliseconds fit in `Int64`.
    static let maximumSeconds: Double = 9_000_000_000_000_000 / 1000

    /// A non-negative number of seconds (integer or decimal), as milliseconds rounded to the nearest one.
    func optionalMilliseconds(seconds key: String) throws(ProjectionDecodingError) -> Int64? {
        guard let value = optional(key) else { return nil }
        return try milliseconds(seconds: key, value)
    }

    func milliseconds(seconds key: String) throws(ProjectionDecodingError) -> Int64 {
        try milliseconds(seconds: key, required(key))
    }

    private func milliseconds(seconds key: String, _ value: JSON) throws(ProjectionDecodingError) -> Int64 {
        switch value {
        case .int(let seconds):
            guard seconds >= 0, Double(seconds) <= JSONMembers.maximumSeconds else {
                throw invalid(key, "a number of seconds of at least 0")
            }
            return seconds * 1000
        case .double(let seconds):
            guard seconds >= 0, seconds <= JSONMembers.maximumSeconds else {
                throw invalid(key, "a number of seconds of at least 0")
            }
            return Int64((seconds * 1000).rounded())
        default:
            throw wrongType(key, "a number of seconds")
        }
    }

    /// The elements of an array member, each decoded with its own path (`key[index]`).
    func optionalArray<Element>(
        _ key: String, _ decode: (JSON, String) throws(ProjectionDecodingError) -> Element
    ) throws(ProjectionDecodingError) -> [Element]? {
        guard let value = optional(key) else { return nil }
        guard let elements = value.arrayValue else { throw wrongType(key, "an array") }
        var result: [Element] = []
        result.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            result.append(try decode(element, "\(memberPath(key))[\(index)]"))
        }
        return result
    }

    func array<Element>(
        _ key: String, _ decode: (JSON, String) throws(ProjectionDecodingError) -> Element
    ) throws(ProjectionDecodingError) -> [Element] {
        _ = try required(key)
        return try optionalArray(key, decode) ?? []
    }
}

extension ProjectionDecodingError {
    /// Parses `bytes` as JSON, turning a parse failure into a `malformedJSON` error.
    static func parse(_ bytes: some Collection<UInt8>) throws(ProjectionDecodingError) -> JSON {
        do {
            return try JSON.parse(bytes)
        } catch {
            throw ProjectionDecodingError(
                code: .malformedJSON, path: "",
                message: "the snapshot is not valid JSON (\(error)); rewrite it with `stint publish`", cause: error)
        }
    }
}
