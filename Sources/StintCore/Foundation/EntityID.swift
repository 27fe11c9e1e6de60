/// The identity of a record or a tag: a UUID, written in lowercase canonical form.
///
/// Stored as two 64-bit halves so that ids hash and compare cheaply; the order is the order of the
/// lowercase text, which is the order the projections promise (`dailyTotals` by tag id, untagged first).
public struct EntityID: Hashable, Comparable, Sendable {
    public var high: UInt64
    public var low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    public static func < (lhs: EntityID, rhs: EntityID) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }

    /// Parses `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (either case); nil for anything else.
    public init?(_ text: some StringProtocol) {
        let parsed =
            text.utf8.withContiguousStorageIfAvailable { EntityID(utf8: $0) }
            ?? Array(text.utf8).withUnsafeBufferPointer { EntityID(utf8: $0) }
        guard let parsed else { return nil }
        self = parsed
    }

    /// Parses the UTF-8 bytes of `xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx` (either case); nil for anything else.
    public init?(utf8 bytes: UnsafeBufferPointer<UInt8>) {
        guard bytes.count == 36, bytes[8] == 0x2D, bytes[13] == 0x2D, bytes[18] == 0x2D, bytes[23] == 0x2D else {
            return nil
        }
        // Digits and letters of either case map to 0…15; anything else sets a bit above them in `invalid`.
        var invalid: UInt64 = 0
        @inline(__always) func nibbles(_ range: Range<Int>, into value: inout UInt64) {
            for index in range {
                let byte = bytes[index]
                let digit = byte &- 0x30
                let letter = (byte | 0x20) &- 0x61
                let nibble: UInt64 = digit < 10 ? UInt64(digit) : letter < 6 ? UInt64(letter) &+ 10 : 0x10
                invalid |= nibble
                value = value << 4 | (nibble & 0xF)
            }
        }
        var high: UInt64 = 0
        var low: UInt64 = 0
        nibbles(0..<8, into: &high)
        nibbles(9..<13, into: &high)
        nibbles(14..<18, into: &high)
        nibbles(19..<23, into: &low)
        nibbles(24..<36, into: &low)
        guard invalid & 0x10 == 0 else { return nil }
        self.init(high: high, low: low)
    }

    static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x61...0x66: return byte - 0x61 + 10
        case 0x41...0x46: return byte - 0x41 + 10
        default: return nil
        }
    }

    /// Builds a version-4 (random) UUID from 128 random bits, setting the version and variant bits.
    public init(randomBits high: UInt64, _ low: UInt64) {
        self.init(
            high: (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000,
            low: (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        )
    }

    /// The lowercase canonical text.
    public var uuidString: String {
        String(decoding: utf8, as: UTF8.self)
    }

    /// The lowercase canonical text as bytes.
    public var utf8: [UInt8] {
        let hex = Array("0123456789abcdef".utf8)
        var bytes = [UInt8]()
        bytes.reserveCapacity(36)
        for shift in stride(from: 60, through: 0, by: -4) {
            if shift == 28 || shift == 12 { bytes.append(0x2D) }
            bytes.append(hex[Int(high >> UInt64(shift) & 0xF)])
        }
        for shift in stride(from: 60, through: 0, by: -4) {
            if shift == 60 || shift == 44 { bytes.append(0x2D) }
            bytes.append(hex[Int(low >> UInt64(shift) & 0xF)])
        }
        return bytes
    }
}

extension EntityID {
    /// Calls `body` with the lowercase canonical text as bytes, held on the stack (no allocation, unlike
    /// ``uuidString`` and ``utf8``).
    public func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 36) { bytes in
            @inline(__always) func digit(_ nibble: UInt64) -> UInt8 {
                UInt8(truncatingIfNeeded: nibble < 10 ? 0x30 + nibble : 0x57 + nibble)
            }
            var index = 0
            for shift in stride(from: 60, through: 0, by: -4) {
                if shift == 28 || shift == 12 {
                    bytes[index] = 0x2D
                    index += 1
                }
                bytes[index] = digit(high >> UInt64(shift) & 0xF)
                index += 1
            }
            for shift in stride(from: 60, through: 0, by: -4) {
                if shift == 60 || shift == 44 {
                    bytes[index] = 0x2D
                    index += 1
                }
                bytes[index] = digit(low >> UInt64(shift) & 0xF)
                index += 1
            }
            return body(UnsafeBufferPointer(bytes))
        }
    }
}

extension EntityID: CustomStringConvertible {
    public var description: String { uuidString }
}
