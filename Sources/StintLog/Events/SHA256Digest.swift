internal import CCrypto

/// A SHA-256 digest kept inline (no allocation), with the hex forms the hash chain uses.
package struct SHA256Digest: Hashable, Sendable {
    var words: (UInt64, UInt64, UInt64, UInt64)

    package static func == (lhs: SHA256Digest, rhs: SHA256Digest) -> Bool {
        lhs.words == rhs.words
    }

    package func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }

    /// The digest of `bytes`.
    package init(of bytes: UnsafeRawBufferPointer) {
        words = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { output in
            stint_sha256(
                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
                output.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// The digest of `bytes`.
    package init(of bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { SHA256Digest(of: $0) }
    }

    /// The digest whose 32 bytes are `bytes` (as computed elsewhere).
    init(bytes: [UInt8]) {
        precondition(bytes.count == 32)
        words = (0, 0, 0, 0)
        bytes.withUnsafeBytes { source in withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: source) } }
    }

    /// The digest whose 64 lowercase hex digits are `hex` (a ``LogHead``'s hash); nil for any other text.
    init?(hex: String) {
        self.init(hexDigits: Array(hex.utf8)[...])
    }

    /// The digest whose 64 lowercase hex digits are the bytes `text`; nil for any other bytes.
    init?(hexDigits text: ArraySlice<UInt8>) {
        guard text.count == 64 else { return nil }
        func value(_ digit: UInt8) -> UInt8? {
            switch digit {
            case 0x30...0x39: return digit - 0x30
            case 0x61...0x66: return digit - 0x61 + 10
            default: return nil
            }
        }
        var bytes = [UInt8](repeating: 0, count: 32)
        for index in 0..<32 {
            let at = text.startIndex + 2 * index
            guard let high = value(text[at]), let low = value(text[at + 1]) else { return nil }
            bytes[index] = high << 4 | low
        }
        words = (0, 0, 0, 0)
        bytes.withUnsafeBytes { source in withUnsafeMutableBytes(of: &words) { $0.copyMemory(from: source) } }
    }

    /// The 32 bytes of the digest.
    var bytes: [UInt8] {
        withUnsafeBytes(of: words) { Array($0) }
    }

    /// All 32 bytes in lowercase hex (the head).
    package var hex: String { SHA256Digest.hex(bytes) }

    /// The first 16 bytes in lowercase hex (a `prev` link).
    var link: String { SHA256Digest.hex(Array(bytes.prefix(16))) }

    /// Whether `prev` (32 lowercase hex digits) is the link of this digest, without allocating.
    func isLink(_ prev: String) -> Bool {
        var prev = prev
        return prev.withUTF8 { text in
            guard text.count == 32 else { return false }
            return withUnsafeBytes(of: words) { digest in
                // Compare the hex of each digest byte with the text: a table lookup per byte, no parsing.
                var difference: UInt16 = 0
                for index in 0..<16 {
                    let expected = SHA256Digest.hexPairs[Int(digest[index])]
                    let actual = UInt16(text[2 * index]) << 8 | UInt16(text[2 * index + 1])
                    difference |= expected ^ actual
                }
                return difference == 0
            }
        }
    }

    /// The two lowercase hex digits of each byte value, the first in the high byte.
    static let hexPairs: [UInt16] = (0..<256).map { value in
        let digits = Array("0123456789abcdef".utf8)
        return UInt16(digits[value >> 4]) << 8 | UInt16(digits[value & 0x0F])
    }

    /// Appends the 64 lowercase hex digits of the digest to `text`.
    func appendHex(to text: inout [UInt8]) {
        for byte in bytes {
            let pair = SHA256Digest.hexPairs[Int(byte)]
            text.append(UInt8(pair >> 8))
            text.append(UInt8(pair & 0xFF))
        }
    }

    static func hex(_ bytes: [UInt8]) -> String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        text.reserveCapacity(bytes.count * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
