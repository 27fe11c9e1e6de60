import Glibc

extension LogDirectory {
    /// The SHA-256 of segment `name`'s bytes, read in pieces of at most 1 MiB; nil when there is no such file.
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

    /// The SHA-256 of segment `name`'s bytes, read through `descriptor` (open on it): of the bytes there were,
    /// for a file that shrank while it was read.
    func digest(ofSegment name: String, open descriptor: Int32) throws(LogError) -> SHA256Hasher {
        var hasher = SHA256Hasher()
        do throws(SystemCallError) {
            let size = try fileSystem.size(of: descriptor)
            let source = ByteSource.file(descriptor: descriptor, fileSystem: fileSystem)
            while hasher.count < size {
                let piece = try source.readFully(count: Int(min(size - hasher.count, 1 << 20)), at: hasher.count)
                if piece.isEmpty { break }
                hasher.add(piece)
            }
        } catch {
            throw LogError.io(error, "read segment", path: path(name))
        }
        return hasher
    }
}
