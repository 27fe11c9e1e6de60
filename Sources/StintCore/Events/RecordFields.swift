/// The members of a record that one `record.edited` sets: a non-empty subset of `start`, `end`, `tagId` and
/// `comment`, persisted as the array `"fields"` in that order (version 2 of `record.edited`).
///
/// The event still carries the record's complete values (a fold starting mid-log needs them); `fields`
/// says which of them the command meant to set, so that the merged fold of a space applies only those and a
/// concurrent edit of another member survives (decision 0007 §8, rules 3 and 4).
public struct RecordFields: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8

    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x0F }

    public static let start = RecordFields(rawValue: 1)
    public static let end = RecordFields(rawValue: 2)
    public static let tagId = RecordFields(rawValue: 4)
    public static let comment = RecordFields(rawValue: 8)
    /// Every member: what a version-1 `record.edited` (complete values, no `fields`) is read as.
    public static let all = RecordFields(rawValue: 0x0F)

    /// Each member with its persisted name, in the canonical order.
    public static let named: [(field: RecordFields, name: String)] = [
        (.start, "start"), (.end, "end"), (.tagId, "tagId"), (.comment, "comment"),
    ]

    /// The persisted names of the members in the set, in the canonical order.
    public var names: [String] { RecordFields.named.filter { contains($0.field) }.map(\.name) }

    public var description: String { names.joined(separator: ",") }

    /// The set named by `names`; nil unless they are non-empty, known, without repeats and in the canonical
    /// order (the only form the log holds).
    public init?(names: [String]) {
        var fields = RecordFields()
        var next = 0
        for name in names {
            guard let index = RecordFields.named[next...].firstIndex(where: { $0.name == name }) else { return nil }
            fields.insert(RecordFields.named[index].field)
            next = index + 1
        }
        guard !fields.isEmpty else { return nil }
        self = fields
    }

    /// The members whose values differ between two versions of one record.
    public init(changedFrom before: Record, to after: Record) {
        var fields = RecordFields()
        if before.start != after.start { fields.insert(.start) }
        if before.end != after.end { fields.insert(.end) }
        if before.tagId != after.tagId { fields.insert(.tagId) }
        if before.comment != after.comment { fields.insert(.comment) }
        self = fields
    }

    /// `record` with the members in this set taken from `values`.
    public func apply(_ values: Record, to record: Record) -> Record {
        var result = record
        if contains(.start) { result.start = values.start }
        if contains(.end) { result.end = values.end }
        if contains(.tagId) { result.tagId = values.tagId }
        if contains(.comment) { result.comment = values.comment }
        return result
    }
}
