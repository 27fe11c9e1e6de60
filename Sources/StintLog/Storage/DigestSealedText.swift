/// The form of the small text files a log directory keeps beside its segments (`tail`, `checked`, `repairing`;
/// docs/log-format.md §1): their lines, then the SHA-256 of those lines as 64 lowercase hex digits and a
/// newline, so that a torn or edited file parses as nothing.
package enum DigestSealedText {
    /// `body` (its lines, each with its newline) followed by its digest line.
    package static func seal(_ body: [UInt8]) -> [UInt8] {
        var file = body
        file.reserveCapacity(body.count + 65)
        SHA256Digest(of: body).appendHex(to: &file)
        file.append(0x0A)
        return file
    }

    /// The lines before the digest line, when it is the SHA-256 of them; nil otherwise.
    package static func body(of bytes: [UInt8]) -> ArraySlice<UInt8>? {
        guard bytes.count > 65, bytes.last == 0x0A else { return nil }
        let end = bytes.count - 65
        let digest = bytes.withUnsafeBytes { SHA256Digest(of: UnsafeRawBufferPointer(rebasing: $0[0..<end])) }
        guard SHA256Digest(hexDigits: bytes[end..<(bytes.count - 1)]) == digest else { return nil }
        return bytes[0..<end]
    }
}
