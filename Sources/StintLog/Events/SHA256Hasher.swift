internal import CCrypto

/// An incremental SHA-256: the digest of bytes added piece by piece (a segment as frames are appended to it),
/// readable after each piece.
struct SHA256Hasher {
    private var context = SHA256_CTX()
    /// How many bytes were added.
    private(set) var count: Int64 = 0

    init() {
        stint_sha256_begin(&context)
    }

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        guard let base = bytes.baseAddress, !bytes.isEmpty else { return }
        stint_sha256_add(&context, base.assumingMemoryBound(to: UInt8.self), bytes.count)
        count += Int64(bytes.count)
    }

    mutating func add(_ bytes: [UInt8]) {
        bytes.withUnsafeBytes { add($0) }
    }

    /// The digest of every byte added so far.
    var digest: SHA256Digest {
        var bytes = [UInt8](repeating: 0, count: 32)
        withUnsafePointer(to: context) { context in
            bytes.withUnsafeMutableBufferPointer { stint_sha256_digest(context, $0.baseAddress!) }
        }
        return SHA256Digest(bytes: bytes)
    }
}
