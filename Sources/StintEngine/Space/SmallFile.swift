import Glibc
@_spi(FaultInjection) import StintLog

/// The small files of a space (the device id, `space.json`, a replica's `space`): read whole, written
/// through `<name>.tmp`, a sync and a rename, so that a reader sees the old bytes or the new, never a part.
struct SmallFile {
    let path: String
    let fileSystem: any LogFileSystem

    /// The most bytes read: every small file of a space is far shorter.
    static let limit = 64 << 10

    /// The file's bytes; nil when nothing is at `path`.
    func read() throws(StintError) -> [UInt8]? {
        do {
            guard try fileSystem.kind(of: path) != nil else { return nil }
            let descriptor = try fileSystem.openFile(path, .readOnly)
            defer { fileSystem.close(descriptor) }
            let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: SmallFile.limit, alignment: 8)
            defer { buffer.deallocate() }
            var count = 0
            while count < SmallFile.limit {
                let read = try fileSystem.read(
                    descriptor, into: UnsafeMutableRawBufferPointer(rebasing: buffer[count...]), at: Int64(count))
                if read == 0 { break }
                count += read
            }
            return Array(buffer[0..<count])
        } catch {
            throw StintError(.refused, "cannot read \(path): \(error); check its permissions")
        }
    }

    /// Replaces the file with `bytes` (creating the directories above it that are missing), with `mode`. A
    /// write that fails takes away the directories it created.
    ///
    /// - Returns: the directories it created, in the order it created them.
    @discardableResult
    func write(_ bytes: [UInt8], mode: mode_t = 0o600) throws(StintError) -> [String] {
        var created: [String] = []
        do {
            try makeParents(&created)
            try fileSystem.replaceFile(path, in: parent, with: bytes, mode: UInt32(mode))
            return created
        } catch {
            try? fileSystem.removeFile(path + ".tmp")
            for directory in created.reversed() { try? fileSystem.removeDirectory(directory) }
            throw StintError(.refused, "cannot write \(path): \(error); check the disk and its permissions")
        }
    }

    /// The directory holding the file.
    var parent: String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    /// Creates the directories above the file that do not exist, adding each it created to `created`.
    private func makeParents(_ created: inout [String]) throws(SystemCallError) {
        var missing: [String] = []
        var directory = parent
        while try fileSystem.kind(of: directory) == nil {
            missing.append(directory)
            guard let slash = directory.lastIndex(of: "/"), slash != directory.startIndex else { break }
            directory = String(directory[..<slash])
        }
        for directory in missing.reversed() {
            do {
                try fileSystem.makeDirectory(directory)
                created.append(directory)
            } catch  where error.errno == EEXIST {}
        }
    }
}
