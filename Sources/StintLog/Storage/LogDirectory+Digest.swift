import Glibc

extension LogDirectory {
    /// The SHA-256 of segment `name`'s bytes, read in pieces of ``digestPiece``; nil when there is no such file.
    func digest(ofSegment name: String) throws(LogError) -> SHA256Hasher? {
        let descriptor: Int32
        do {
            descriptor = try fileSystem.openFile(path(name), .readOnly)
        } catch {
            if error.errno == ENOENT { return nil }
            throw LogError.io(error, "open segment", path: path(name))
        }
        defer { fileSystem.close(descriptor) }
        return try digest(ofSegment: name, open: descriptor)
    }

    /// How many bytes ``digest(ofSegment:open:)`` reads at a time.
    static let digestPiece: Int64 = 1 << 16

    /// The SHA-256 of segment `name`'s bytes, read through `descriptor` (open on it): of the bytes there were,
    /// for a file that shrank while it was read.
    func digest(ofSegment name: String, open descriptor: Int32) throws(LogError) -> SHA256Hasher {
        var hasher = SHA256Hasher()
        do throws(SystemCallError) {
            let size = try fileSystem.size(of: descriptor)
            let source = ByteSource.file(descriptor: descriptor, fileSystem: fileSystem)
            // A piece at a time through one buffer: a fresh megabyte for each segment costs more in page faults
            // than the hashing.
            let buffer = UnsafeMutableRawBufferPointer.allocate(
                byteCount: Int(max(1, min(size, Self.digestPiece))), alignment: 16)
            defer { buffer.deallocate() }
            while hasher.count < size {
                let count = Int(min(size - hasher.count, Int64(buffer.count)))
                let read = try source.readFully(
                    into: UnsafeMutableRawBufferPointer(rebasing: buffer[..<count]), at: hasher.count)
                if read == 0 { break }
                hasher.add(UnsafeRawBufferPointer(rebasing: buffer[..<read]))
            }
        } catch {
            throw LogError.io(error, "read segment", path: path(name))
        }
        return hasher
    }
}
