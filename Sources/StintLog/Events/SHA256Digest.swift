internal import CCrypto

/// A SHA-256 digest kept inline (no allocation), with the hex forms the hash chain uses.
struct SHA256Digest: Hashable, Sendable {
    var words: (UInt64, UInt64, UInt64, UInt64)

    static func == (lhs: SHA256Digest, rhs: SHA256Digest) -> Bool {
        lhs.words == rhs.words
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(words.0)
        hasher.combine(words.1)
        hasher.combine(words.2)
        hasher.combine(words.3)
    }

    /// The digest of `bytes`.
    init(of bytes: UnsafeRawBufferPointer) {
        words = (0, 0, 0, 0)
        withUnsafeMutableBytes(of: &words) { output in
            _ = SHA256(
                bytes.baseAddress?.assumingMemoryBound(to: UInt8.self), bytes.count,
                output.baseAddress!.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// The digest of `bytes`.
    init(of bytes: [UInt8]) {
        self = bytes.withUnsafeBytes { SHA256Digest(of: $0) }
    }

    /// The 32 bytes of the digest.
    var bytes: [UInt8] {
        withUnsafeBytes(of: words) { Array($0) }
    }

    /// All 32 bytes in lowercase hex (the head).
    var hex: String { SHA256Digest.hex(bytes) }

    /// The first 16 bytes in lowercase hex (a `prev` link).
    var link: String { SHA256Digest.hex(Array(bytes.prefix(16))) }

    /// Whether `prev` (32 lowercase hex digits) is the link of this digest, without allocating.
    func isLink(_ prev: String) -> Bool {
        var prev = prev
        return prev.withUTF8 { text in
            guard text.count == 32 else { return false }
            return withUnsafeBytes(of: words) { digest in
                for index in 0..<16 {
                    guard let high = SHA256Digest.nibble(text[2 * index]),
                        let low = SHA256Digest.nibble(text[2 * index + 1]), high << 4 | low == digest[index]
                    else { return false }
                }
                return true
            }
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

    static func nibble(_ byte: UInt8) -> UInt8? {
        switch byte {
        case 0x30...0x39: return byte - 0x30
        case 0x61...0x66: return byte - 0x61 + 10
        default: return nil
        }
    }
}
