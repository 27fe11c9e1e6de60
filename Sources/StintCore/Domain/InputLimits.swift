/// The rules every tag name, comment, color and record span must follow, and the normalizations applied.
///
/// Lengths count `Character`s (what a person sees as one letter or emoji), not bytes or scalars.
public enum InputLimits {
    /// The longest tag name, in characters.
    public static let maximumTagNameLength = 64
    /// The longest comment, in characters.
    public static let maximumCommentLength = 500
    /// The longest record without `force`: 7 × 24 hours of elapsed time (168 hours, whatever DST does).
    public static let maximumRecordMilliseconds: Int64 = 7 * 24 * 3_600_000
    /// The longest record even with `force`: 366 × 24 hours. A forgotten timer is a matter of days or weeks;
    /// a span of years is a mistyped date, and the day totals keep a row for every day a record covers
    /// (docs/read-models.md), so such a record would cost a write per day and slow every report after it.
    public static let longestForcedRecordMilliseconds: Int64 = longestForcedRecordDays * 24 * 3_600_000
    /// ``longestForcedRecordMilliseconds`` in days of 24 hours, as messages name it.
    public static let longestForcedRecordDays: Int64 = 366
    /// How far after now a time argument may fall and still be taken as now (a minute: typing the
    /// current `HH:MM` a few seconds early is not a mistake worth refusing).
    public static let futureToleranceMilliseconds: Int64 = 60_000

    /// A tag name trimmed of surrounding whitespace and checked.
    ///
    /// - Throws: ``DomainError/Code/tagNameEmpty``, ``DomainError/Code/tagNameTooLong`` or
    ///   ``DomainError/Code/tagNameControlCharacter`` (all usage errors).
    public static func tagName(_ text: String) throws(DomainError) -> String {
        let name = trimmed(text)
        guard !name.isEmpty else {
            throw DomainError(.tagNameEmpty, "a tag name must not be empty; give a name such as \"Work\"")
        }
        guard name.count <= maximumTagNameLength else {
            throw DomainError(
                .tagNameTooLong,
                "the tag name has \(name.count) characters; the limit is \(maximumTagNameLength): use a shorter name")
        }
        guard !name.unicodeScalars.contains(where: isControl) else {
            throw DomainError(
                .tagNameControlCharacter,
                "a tag name must not contain control characters (such as newlines or tabs); remove them")
        }
        return name
    }

    /// The names a new tag may not have, compared ignoring case: summaries name their row of untagged time
    /// "Untagged" and the row that folds the remaining tags "Other" (``WidgetPeriodSummary``), so a tag of
    /// either name would print a row that cannot be told apart from them.
    public static let reservedTagNames = [WidgetPeriodSummary.untaggedName, WidgetPeriodSummary.otherName]

    /// Whether `name` is one of ``reservedTagNames``, ignoring case.
    public static func isReservedTagName(_ name: String) -> Bool {
        reservedTagNames.contains { nameKey($0) == nameKey(trimmed(name)) }
    }

    /// The name of a tag about to be created or renamed: ``tagName(_:)``, and not reserved.
    ///
    /// - Throws: the errors of ``tagName(_:)``, or ``DomainError/Code/tagNameReserved`` (a usage error).
    public static func newTagName(_ text: String) throws(DomainError) -> String {
        let name = try tagName(text)
        guard !isReservedTagName(name) else {
            throw DomainError(
                .tagNameReserved,
                "\"\(name)\" is reserved: summaries call untagged time \"\(WidgetPeriodSummary.untaggedName)\" and "
                    + "the tags that do not fit \"\(WidgetPeriodSummary.otherName)\", so a tag of that name could not "
                    + "be told apart from them; choose another name, such as \"\(name) work\" (to start a timer "
                    + "without a tag, give no name)")
        }
        return name
    }

    /// A comment trimmed of surrounding whitespace and checked; nil when nothing is left.
    ///
    /// Newlines and tabs inside a comment are kept; other control characters (carriage returns included)
    /// are refused rather than silently dropped.
    /// - Throws: ``DomainError/Code/commentTooLong`` or ``DomainError/Code/commentControlCharacter``.
    public static func comment(_ text: String) throws(DomainError) -> String? {
        let comment = trimmed(text)
        if comment.isEmpty { return nil }
        guard comment.count <= maximumCommentLength else {
            throw DomainError(
                .commentTooLong,
                "the comment has \(comment.count) characters; the limit is \(maximumCommentLength): shorten it")
        }
        if let scalar = comment.unicodeScalars.first(where: { isControl($0) && $0 != "\n" && $0 != "\t" }) {
            let code = String(scalar.value, radix: 16, uppercase: true)
            throw DomainError(
                .commentControlCharacter,
                "the comment contains the control character U+\(String(repeating: "0", count: max(0, 4 - code.count)))"
                    + "\(code); only newlines and tabs are allowed: remove it")
        }
        return comment
    }

    /// A color `#RRGGBB` (either case) in its canonical uppercase form.
    ///
    /// - Throws: ``DomainError/Code/invalidColor``.
    public static func color(_ text: String) throws(DomainError) -> String {
        let color = trimmed(text).uppercased()
        guard isCanonicalColor(color) else {
            throw DomainError(.invalidColor, "\"\(text)\" is not a color; write it as #RRGGBB, such as #3A7BD5")
        }
        return color
    }

    /// Whether `text` is `#` followed by six uppercase hexadecimal digits.
    public static func isCanonicalColor(_ text: String) -> Bool {
        let bytes = Array(text.utf8)
        return bytes.count == 7 && bytes[0] == 0x23
            && bytes.dropFirst().allSatisfy { (0x30...0x39).contains($0) || (0x41...0x46).contains($0) }
    }

    /// The key names are compared by: equal keys name the same tag (case-insensitive).
    package static func nameKey(_ name: String) -> String {
        name.lowercased()
    }

    static func trimmed(_ text: String) -> String {
        let scalars = text.unicodeScalars
        guard let first = scalars.firstIndex(where: { !$0.properties.isWhitespace }),
            let last = scalars.lastIndex(where: { !$0.properties.isWhitespace })
        else { return "" }
        return String(scalars[first...last])
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        scalar.properties.generalCategory == .control
    }
}
