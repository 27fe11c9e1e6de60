import StintCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// The snapshot file `stint publish` maintains: read it to compare, replace it atomically and durably.
struct SnapshotFile {
    let path: String

    /// What is at the path.
    enum Content {
        case missing
        /// A file of zero bytes (nothing to lose).
        case empty
        case snapshot(WidgetData)
        case directory
        /// Something that does not decode as a widget snapshot, and why.
        case notASnapshot(String)
        /// The file could not be read, and why.
        case unreadable(String)
    }

    /// Why a write failed: the operation and the system's reason.
    struct WriteError: Error {
        var reason: String
    }

    func contents() -> Content {
        var info = stat()
        guard stat(path, &info) == 0 else {
            return errno == ENOENT ? .missing : .unreadable(SnapshotFile.describeErrno())
        }
        if (info.st_mode & S_IFMT) == S_IFDIR { return .directory }
        guard (info.st_mode & S_IFMT) == S_IFREG else { return .notASnapshot("it is not a regular file") }
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return .unreadable(SnapshotFile.describeErrno()) }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                return .unreadable(SnapshotFile.describeErrno())
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
            // A snapshot is a few kilobytes; anything far larger is not one.
            if bytes.count > 64 << 20 { return .notASnapshot("it is larger than 64 MiB") }
        }
        if bytes.isEmpty { return .empty }
        do {
            return .snapshot(try WidgetData(decoding: bytes))
        } catch {
            let location = error.path.isEmpty ? "" : " at \(error.path)"
            return .notASnapshot("\(SnapshotFile.describe(error.code))\(location)")
        }
    }

    static func describe(_ code: ProjectionDecodingError.Code) -> String {
        switch code {
        case .malformedJSON: return "it is not JSON"
        case .missingMember: return "a snapshot member is missing"
        case .wrongType: return "a member has the wrong type"
        case .invalidValue: return "a member has an invalid value"
        }
    }

    /// Replaces the file with `bytes`: writes a temporary file beside it, flushes it, renames it over the
    /// file and flushes the directory, so a reader sees the old snapshot or the new one, never a part.
    ///
    /// Only a regular file (or nothing) is replaced: renaming over a device such as `/dev/null`, a FIFO or a
    /// socket would put a regular file in its place, for every program that uses it.
    func replace(with bytes: [UInt8], temporarySuffix: some StringProtocol) throws(WriteError) {
        var info = stat()
        if stat(path, &info) == 0, (info.st_mode & S_IFMT) != S_IFREG {
            throw WriteError(reason: "it is not a regular file (a device, FIFO or socket is never replaced)")
        }
        guard let file = LocalPath(path), let name = file.lastComponent, !file.endsWithSlash else {
            throw WriteError(
                reason: "the path names a directory, not a file; give a file name such as widget-data.json")
        }
        let directory = file.parent.string
        let temporary = file.parent.appending(".\(name).\(temporarySuffix).tmp").string
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw WriteError(reason: "create \(temporary): \(SnapshotFile.describeErrno())") }
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 {
                if errno == EINTR { continue }
                let reason = SnapshotFile.describeErrno()
                close(descriptor)
                unlink(temporary)
                throw WriteError(reason: "write \(temporary): \(reason)")
            }
            offset += count
        }
        guard fsync(descriptor) == 0 else {
            let reason = SnapshotFile.describeErrno()
            close(descriptor)
            unlink(temporary)
            throw WriteError(reason: "flush \(temporary): \(reason)")
        }
        close(descriptor)
        guard rename(temporary, path) == 0 else {
            let reason = SnapshotFile.describeErrno()
            unlink(temporary)
            throw WriteError(reason: "rename \(temporary) to \(path): \(reason)")
        }
        let directoryDescriptor = open(directory, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        if directoryDescriptor >= 0 {
            _ = fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    static func describeErrno() -> String {
        String(cString: strerror(errno))
    }
}
