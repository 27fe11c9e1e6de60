/// A reference to a record as a person types it: a full UUID or a unique prefix of at least four hex digits.
///
/// Case is ignored and dashes may be typed or left out (`3F2A9C4E-0B`, `3f2a9c4e0b` and `3f2a-9c4e-0b` are the
/// same prefix): only the hexadecimal digits count.
public struct RecordRef: Hashable, Sendable, CustomStringConvertible {
    /// The shortest prefix accepted, in hexadecimal digits.
    public static let minimumDigits = 4

    /// The text as typed.
    public let text: String
    let nibbles: [UInt8]
    /// The digits as bits of an id, to test ids quickly (``matches(_:)``).
    let idPrefix: IDPrefix

    /// Reads a reference.
    ///
    /// - Throws: ``DomainError/Code/invalidReference`` for characters other than hex digits and dashes or more
    ///   than 32 digits; ``DomainError/Code/referenceTooShort`` for fewer than four digits (usage errors).
    public init(_ text: String) throws(DomainError) {
        var nibbles: [UInt8] = []
        for byte in text.utf8 where byte != 0x2D {
            guard let nibble = EntityID.nibble(byte) else {
                throw DomainError(
                    .invalidReference,
                    "\"\(text)\" is not a record id: use the id `stint` printed, or its first \(Self.minimumDigits) "
                        + "or more hexadecimal digits")
            }
            nibbles.append(nibble)
        }
        guard nibbles.count <= 32 else {
            throw DomainError(.invalidReference, "\"\(text)\" is longer than a record id (32 hexadecimal digits)")
        }
        guard nibbles.count >= Self.minimumDigits else {
            throw DomainError(
                .referenceTooShort,
                "\"\(text)\" is too short to name a record: give at least \(Self.minimumDigits) hexadecimal digits")
        }
        self.text = text
        self.nibbles = nibbles
        idPrefix = IDPrefix(nibbles)
    }

    /// A reference to exactly this id.
    public init(_ id: EntityID) {
        text = id.uuidString
        nibbles = (0..<32).map { RecordRef.nibble($0, of: id) }
        idPrefix = IDPrefix(nibbles)
    }

    /// Whether `id` starts with this reference's digits.
    public func matches(_ id: EntityID) -> Bool { idPrefix.matches(id) }

    /// The reference's digits as bits of an id and the mask of the bits they give.
    struct IDPrefix: Hashable, Sendable {
        var high: UInt64 = 0
        var highMask: UInt64 = 0
        var low: UInt64 = 0
        var lowMask: UInt64 = 0

        init(_ nibbles: [UInt8]) {
            for (index, nibble) in nibbles.enumerated() {
                let shift = UInt64(60 - 4 * (index % 16))
                if index < 16 {
                    high |= UInt64(nibble) << shift
                    highMask |= 0xF << shift
                } else {
                    low |= UInt64(nibble) << shift
                    lowMask |= 0xF << shift
                }
            }
        }

        func matches(_ id: EntityID) -> Bool {
            id.high & highMask == high && id.low & lowMask == low
        }
    }

    static func nibble(_ index: Int, of id: EntityID) -> UInt8 {
        let half = index < 16 ? id.high : id.low
        return UInt8(truncatingIfNeeded: half >> UInt64(60 - 4 * (index % 16))) & 0xF
    }

    public var description: String { text }
}
