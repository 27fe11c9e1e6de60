import Glibc

/// Copies a log directory's `format` and segments into another directory that only this copier writes: a
/// device's directory in a space's sync folder (docs/decisions/0007 §1.2, "publishes").
///
/// Only what the copy lacks is written. A segment the copy holds a prefix of (the active segment, which
/// grows by whole frames) gets the missing bytes appended and synced; any other difference (a segment sealed
/// since, a copy cut short by a crash mid-copy, a missing segment) is replaced whole, through `<name>.tmp`
/// and a rename, so that a sync tool never sees a segment that is not a prefix of the log's. Segments of
/// the copy that the log does not have are left alone. The caller holds the log's lock, so the log does not
/// change meanwhile.
///
/// ```swift
/// let written = try SegmentCopier(options: options).copy(from: logPath, to: "\(folder)/devices/\(device)")
/// ```
public struct SegmentCopier: Sendable {
    /// How many bytes at the end of a copied file are compared with the log's at the same place: a sealed
    /// segment differs from the unsealed one it replaced in its last bytes (the seal index).
    static let comparedTail = 4096

    let options: LogReader.Options
    var fileSystem: any LogFileSystem { options.fileSystem }

    /// A copier using `options`' file system.
    public init(options: LogReader.Options = LogReader.Options()) {
        self.options = options
    }

    /// Brings `destination` up to the log directory at `source`; creates `destination` (not its parent)
    /// when it does not exist. With `fromItsLastSegment`, only the log's segments from the copy's last one on
    /// (by name) are looked at: after an append to a log whose copy this copier completed, only those can
    /// differ (the active segment grew, or was sealed and a new one begun), and a log of a million events has
    /// some seventy segments to compare otherwise. A segment missing or damaged further back is then left as
    /// it is, for a whole copy to mend.
    ///
    /// - Returns: the names of the files written (segments appended to or replaced, `format`).
    /// - Throws: ``LogError/Code/io`` when a read or a write fails (a partial copy is completed by the next
    ///   call); the errors of ``LogReader/init(path:options:)`` for a source that is not a log.
    @discardableResult
    public func copy(from source: String, to destination: String, fromItsLastSegment: Bool = false)
        throws(LogError) -> [String]
    {
        let log = LogDirectory(path: source, fileSystem: fileSystem)
        let format = try log.checkFormat()
        let copy = LogDirectory(path: destination, fileSystem: fileSystem)
        do {
            if try fileSystem.kind(of: destination) == nil { try fileSystem.makeDirectory(destination) }
        } catch {
            throw LogError.io(error, "create the directory", path: destination)
        }
        var written: [String] = []
        let formatText = format == 1 ? LogDirectory.formatText : LogDirectory.formatText2
        if try contents(of: copy.path(LogDirectory.formatName)) != formatText {
            try replace(LogDirectory.formatName, in: copy, with: formatText)
            written.append(LogDirectory.formatName)
        }
        var segments = try log.listing().segments
        if fromItsLastSegment, let last = try copy.listing().segments.last?.firstSeq {
            segments = Array(segments.drop { $0.firstSeq < last })
        }
        for (index, segment) in segments.enumerated() {
            if try bring(segment.name, from: log, to: copy, mayAppend: index == segments.count - 1) {
                written.append(segment.name)
            }
        }
        return written
    }

    /// Brings one segment of the copy up to the log's; whether anything was written.
    private func bring(
        _ name: String, from log: LogDirectory, to copy: LogDirectory, mayAppend: Bool
    ) throws(LogError) -> Bool {
        let sourcePath = log.path(name)
        let targetPath = copy.path(name)
        let source: Int32
        do {
            source = try fileSystem.openFile(sourcePath, .readOnly)
        } catch {
            throw LogError.io(error, "open \(name)", path: sourcePath)
        }
        defer { fileSystem.close(source) }
        let target: Int32?
        do {
            target = try fileSystem.kind(of: targetPath) == nil ? nil : try fileSystem.openFile(targetPath, .readWrite)
        } catch {
            throw LogError.io(error, "open \(name)", path: targetPath)
        }
        defer { if let target { fileSystem.close(target) } }
        do {
            let sourceSize = try fileSystem.size(of: source)
            let sourceBytes = ByteSource.file(descriptor: source, fileSystem: fileSystem)
            if let target {
                let targetSize = try fileSystem.size(of: target)
                let tailStart = max(0, targetSize - Int64(SegmentCopier.comparedTail))
                let tail = try ByteSource.file(descriptor: target, fileSystem: fileSystem)
                    .readFully(count: Int(targetSize - tailStart), at: tailStart)
                let sameTail = try sourceBytes.readFully(count: tail.count, at: tailStart) == tail
                if sameTail && targetSize == sourceSize { return false }
                if sameTail && targetSize < sourceSize && mayAppend {
                    let missing = try sourceBytes.readFully(count: Int(sourceSize - targetSize), at: targetSize)
                    try missing.withBytes { (bytes) throws(SystemCallError) in
                        try fileSystem.write(target, bytes, at: targetSize)
                    }
                    try fileSystem.synchronize(target, dataOnly: true)
                    return true
                }
            }
            let whole = try sourceBytes.readFully(count: Int(sourceSize), at: 0)
            try replace(name, in: copy, with: whole)
            return true
        } catch let error as SystemCallError {
            throw LogError.io(error, "copy \(name)", path: targetPath)
        } catch let error as LogError {
            throw error
        } catch {
            throw LogError(.io, "copy \(name) to \(targetPath): \(error)")
        }
    }

    /// The bytes of a small file; nil when it does not exist.
    private func contents(of path: String) throws(LogError) -> [UInt8]? {
        do {
            guard try fileSystem.kind(of: path) != nil else { return nil }
            let descriptor = try fileSystem.openFile(path, .readOnly)
            defer { fileSystem.close(descriptor) }
            return try ByteSource.file(descriptor: descriptor, fileSystem: fileSystem).readFully(count: 64, at: 0)
        } catch {
            throw LogError.io(error, "read", path: path)
        }
    }

    /// Replaces a file of `directory` whole: `<name>.tmp`, sync, rename, directory sync.
    private func replace(_ name: String, in directory: LogDirectory, with bytes: [UInt8]) throws(LogError) {
        do {
            try fileSystem.replaceFile(directory.path(name), in: directory.path, with: bytes)
        } catch {
            throw LogError.io(error, "write \(name)", path: directory.path(name))
        }
    }
}
