import Foundation
@_spi(FaultInjection) import StintLog

/// An in-memory ``LogFileSystem`` that knows what a power loss could leave on disk.
///
/// It keeps two versions of everything: what the process sees, and what is durable. A file's data becomes
/// durable when the file is synced (`fsync`/`fdatasync`); a directory's entries (files created, renamed,
/// removed, directories made) when the directory is synced. Until then each write, truncation and entry
/// change is *pending*. ``powerFailsAfter`` cuts the power before a chosen mutating operation: it and every
/// later operation fail with `EIO`, as if the machine had stopped there. ``crashImage(using:)`` then makes
/// what a reboot could find: the durable state plus each pending change kept, dropped, or — for writes —
/// torn at 512-byte sector granularity, with the file's size extended over sectors that never arrived (read
/// back as zeros or stale garbage). Entry changes are replayed either as a prefix (a journaling file system)
/// or each independently (a disk that reorders); one that no longer applies is skipped. This is the idea
/// of SQLite's crash tests, without root and without a real disk.
final class PowerLossFileSystem: LogFileSystem, @unchecked Sendable {
    private enum PendingWrite {
        case write(offset: Int, bytes: [UInt8])
        case truncate(Int)
    }

    private final class Inode {
        var current: [UInt8]
        var durable: [UInt8]
        var pending: [PendingWrite] = []
        var lockHolder: Int32?

        init(_ bytes: [UInt8]) {
            current = bytes
            durable = bytes
        }
    }

    private enum Entry: Hashable {
        case file(Int)
        case directory
    }

    private enum EntryChange {
        case link(String, Entry)
        case unlink(String)
        case rename(String, String)
    }

    private struct Directory {
        var current: [String: Entry] = [:]
        var durable: [String: Entry] = [:]
        var pending: [EntryChange] = []
    }

    private let lock = NSLock()
    private var inodes: [Int: Inode] = [:]
    private var directories: [String: Directory] = [:]
    private var descriptors: [Int32: Int] = [:]
    private var nextInode = 1
    private var nextDescriptor: Int32 = 100
    /// The directory everything lives under; it exists and is durable from the start.
    let root: String

    /// How many mutating operations succeed before the power fails; nil: it never fails.
    var powerFailsAfter: Int?
    /// The mutating operations performed so far.
    private(set) var mutations = 0
    /// Whether the power has failed.
    private(set) var isDown = false

    init(root: String = "/mem") {
        self.root = root
        directories[root] = Directory()
    }

    // MARK: Crash images

    /// What a reboot after a power loss now could find, as a new file system with nothing pending.
    func crashImage(using generator: inout some RandomNumberGenerator) -> PowerLossFileSystem {
        lock.withLock {
            let image = PowerLossFileSystem(root: root)
            let prefixOnly = Bool.random(using: &generator)
            var survivors: [String: [String: Entry]] = [:]
            for path in directories.keys.sorted() {
                survivors[path] = replay(directories[path]!, prefixOnly: prefixOnly, using: &generator)
            }
            // Keep the directories reachable from the root, and the files they name.
            var queue = [root]
            var copied: [Int: Int] = [:]
            while let path = queue.popLast() {
                var directory = Directory()
                for (name, entry) in (survivors[path] ?? [:]).sorted(by: { $0.key < $1.key }) {
                    switch entry {
                    case .directory:
                        guard survivors[path + "/" + name] != nil else { continue }
                        directory.current[name] = .directory
                        queue.append(path + "/" + name)
                    case .file(let number):
                        guard let inode = inodes[number] else { continue }
                        if copied[number] == nil {
                            copied[number] = image.nextInode
                            image.inodes[image.nextInode] = Inode(surviving(inode, using: &generator))
                            image.nextInode += 1
                        }
                        directory.current[name] = .file(copied[number]!)
                    }
                }
                directory.durable = directory.current
                image.directories[path] = directory
            }
            return image
        }
    }

    private func replay(
        _ directory: Directory, prefixOnly: Bool, using generator: inout some RandomNumberGenerator
    ) -> [String: Entry] {
        var entries = directory.durable
        let kept = prefixOnly ? Int.random(in: 0...directory.pending.count, using: &generator) : directory.pending.count
        for (index, change) in directory.pending.enumerated() {
            if prefixOnly ? index >= kept : Bool.random(using: &generator) { continue }
            switch change {
            case .link(let name, let entry):
                entries[name] = entry
            case .unlink(let name):
                entries[name] = nil
            case .rename(let source, let destination):
                guard let entry = entries[source] else { continue }
                entries[source] = nil
                entries[destination] = entry
            }
        }
        return entries
    }

    private func surviving(_ inode: Inode, using generator: inout some RandomNumberGenerator) -> [UInt8] {
        var bytes = inode.durable
        for change in inode.pending {
            switch change {
            case .truncate(let size):
                guard Bool.random(using: &generator) else { continue }
                if size < bytes.count {
                    bytes.removeLast(bytes.count - size)
                } else {
                    bytes += [UInt8](repeating: 0, count: size - bytes.count)
                }
            case .write(let offset, let data):
                switch Int.random(in: 0..<3, using: &generator) {
                case 0:
                    continue
                case 1:
                    place(data[...], at: offset, in: &bytes)
                default:
                    tear(data, at: offset, into: &bytes, using: &generator)
                }
            }
        }
        return bytes
    }

    /// Keeps each 512-byte sector of a write or not; the size may cover sectors that never arrived.
    private func tear(
        _ data: [UInt8], at offset: Int, into bytes: inout [UInt8], using generator: inout some RandomNumberGenerator
    ) {
        let end = offset + data.count
        var start = offset
        while start < end {
            let sectorEnd = min(end, (start / 512 + 1) * 512)
            if Bool.random(using: &generator) {
                place(data[(start - offset)..<(sectorEnd - offset)], at: start, in: &bytes)
            }
            start = sectorEnd
        }
        if end > bytes.count, Bool.random(using: &generator) {
            let missing = end - bytes.count
            if Bool.random(using: &generator) {
                bytes += [UInt8](repeating: 0, count: missing)
            } else {
                bytes += (0..<missing).map { _ in UInt8.random(in: 0...255, using: &generator) }
            }
        }
    }

    private func place(_ data: ArraySlice<UInt8>, at offset: Int, in bytes: inout [UInt8]) {
        if offset > bytes.count { bytes += [UInt8](repeating: 0, count: offset - bytes.count) }
        let overlap = min(data.count, bytes.count - offset)
        bytes.replaceSubrange(offset..<(offset + overlap), with: data.prefix(overlap))
        bytes += data.dropFirst(overlap)
    }

    // MARK: Inspection

    /// The names in a directory as the process sees them.
    func names(in path: String) -> [String] {
        lock.withLock { (directories[path]?.current.keys).map { $0.sorted() } ?? [] }
    }

    /// A file's bytes as the process sees them; nil when it does not exist.
    func contents(of path: String) -> [UInt8]? {
        lock.withLock {
            guard let (directory, name) = split(path), case .file(let number)? = directories[directory]?.current[name]
            else { return nil }
            return inodes[number]?.current
        }
    }

    // MARK: LogFileSystem

    private func split(_ path: String) -> (String, String)? {
        guard let slash = path.lastIndex(of: "/") else { return nil }
        let name = String(path[path.index(after: slash)...])
        guard !name.isEmpty else { return nil }
        return (String(path[..<slash]), name)
    }

    private func locked<T>(_ body: () throws(SystemCallError) -> T) throws(SystemCallError) -> T {
        lock.lock()
        defer { lock.unlock() }
        return try body()
    }

    /// Counts a mutating operation; throws once the power is down.
    private func mutate(_ operation: String) throws(SystemCallError) {
        if isDown { throw SystemCallError(operation: operation, errno: EIO) }
        if let limit = powerFailsAfter, mutations >= limit {
            isDown = true
            throw SystemCallError(operation: operation, errno: EIO)
        }
        mutations += 1
    }

    private func alive(_ operation: String) throws(SystemCallError) {
        if isDown { throw SystemCallError(operation: operation, errno: EIO) }
    }

    private func inode(_ descriptor: Int32, _ operation: String) throws(SystemCallError) -> Inode {
        guard let number = descriptors[descriptor], let inode = inodes[number] else {
            throw SystemCallError(operation: operation, errno: EBADF)
        }
        return inode
    }

    func openFile(_ path: String, _ mode: FileOpenMode) throws(SystemCallError) -> Int32 {
        try locked { () throws(SystemCallError) -> Int32 in
            guard let (directoryPath, name) = split(path), var directory = directories[directoryPath] else {
                throw SystemCallError(operation: "open", path: path, errno: ENOENT)
            }
            let number: Int
            switch directory.current[name] {
            case .directory?:
                throw SystemCallError(operation: "open", path: path, errno: EISDIR)
            case .file(let existing)?:
                if mode == .createTruncated {
                    try mutate("open")
                    inodes[existing]!.current = []
                    inodes[existing]!.pending.append(.truncate(0))
                } else {
                    try alive("open")
                }
                number = existing
            case nil:
                guard mode == .createIfMissing || mode == .createTruncated else {
                    try alive("open")
                    throw SystemCallError(operation: "open", path: path, errno: ENOENT)
                }
                try mutate("open")
                number = nextInode
                nextInode += 1
                inodes[number] = Inode([])
                inodes[number]!.durable = []
                directory.current[name] = .file(number)
                directory.pending.append(.link(name, .file(number)))
                directories[directoryPath] = directory
            }
            let descriptor = nextDescriptor
            nextDescriptor += 1
            descriptors[descriptor] = number
            return descriptor
        }
    }

    func close(_ descriptor: Int32) {
        lock.withLock {
            if let number = descriptors.removeValue(forKey: descriptor), inodes[number]?.lockHolder == descriptor {
                inodes[number]?.lockHolder = nil
            }
        }
    }

    func read(
        _ descriptor: Int32, into buffer: UnsafeMutableRawBufferPointer, at offset: Int64?
    ) throws(SystemCallError) -> Int {
        try locked { () throws(SystemCallError) -> Int in
            try alive("pread")
            guard let offset else { throw SystemCallError(operation: "read", errno: ESPIPE) }
            let bytes = try inode(descriptor, "pread").current
            let start = Int(offset)
            guard start < bytes.count else { return 0 }
            let count = min(buffer.count, bytes.count - start)
            bytes.withUnsafeBytes { source in
                buffer.copyMemory(from: UnsafeRawBufferPointer(rebasing: source[start..<(start + count)]))
            }
            return count
        }
    }

    func write(_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int64) throws(SystemCallError) {
        try locked { () throws(SystemCallError) in
            let wasDown = isDown
            do throws(SystemCallError) {
                try mutate("pwrite")
            } catch {
                // The power failed during this write: some of its first bytes may have reached the cache.
                if !wasDown, bytes.count > 1, let file = try? inode(descriptor, "pwrite") {
                    let count = bytes.count * (mutations % 7 + 1) / 8
                    file.pending.append(.write(offset: Int(offset), bytes: Array(bytes.prefix(count))))
                }
                throw error
            }
            let file = try inode(descriptor, "pwrite")
            let data = Array(bytes)
            place(data[...], at: Int(offset), in: &file.current)
            file.pending.append(.write(offset: Int(offset), bytes: data))
        }
    }

    func synchronize(_ descriptor: Int32, dataOnly: Bool) throws(SystemCallError) {
        try locked { () throws(SystemCallError) in
            try mutate(dataOnly ? "fdatasync" : "fsync")
            let file = try inode(descriptor, "fsync")
            file.durable = file.current
            file.pending = []
        }
    }

    func truncate(_ descriptor: Int32, to size: Int64) throws(SystemCallError) {
        try locked { () throws(SystemCallError) in
            try mutate("ftruncate")
            let file = try inode(descriptor, "ftruncate")
            let size = Int(size)
            if size < file.current.count {
                file.current.removeLast(file.current.count - size)
            } else {
                file.current += [UInt8](repeating: 0, count: size - file.current.count)
            }
            file.pending.append(.truncate(size))
        }
    }

    func size(of descriptor: Int32) throws(SystemCallError) -> Int64 {
        try locked { () throws(SystemCallError) -> Int64 in
            try alive("fstat")
            return Int64(try inode(descriptor, "fstat").current.count)
        }
    }

    func rename(_ source: String, to destination: String) throws(SystemCallError) {
        try locked { () throws(SystemCallError) in
            guard let (sourceDirectory, sourceName) = split(source), let (directoryPath, name) = split(destination),
                sourceDirectory == directoryPath, var directory = directories[directoryPath]
            else {
                throw SystemCallError(operation: "rename", path: source, errno: EXDEV)
            }
            guard let entry = directory.current[sourceName] else {
                try alive("rename")
                throw SystemCallError(operation: "rename", path: source, errno: ENOENT)
            }
            try mutate("rename")
            directory.current[sourceName] = nil
            directory.current[name] = entry
            directory.pending.append(.rename(sourceName, name))
            directories[directoryPath] = directory
        }
    }

    func removeFile(_ path: String) throws(SystemCallError) {
        try locked { () throws(SystemCallError) in
            guard let (directoryPath, name) = split(path), var directory = directories[directoryPath],
                case .file? = directory.current[name]
            else {
                try alive("unlink")
                throw SystemCallError(operation: "unlink", path: path, errno: ENOENT)
            }
            try mutate("unlink")
            directory.current[name] = nil
            directory.pending.append(.unlink(name))
            directories[directoryPath] = directory
        }
    }

    func removeDirectory(_ path: String) throws(SystemCallError) {
        try locked { () throws(SystemCallError) in
            guard let (parentPath, name) = split(path), var parent = directories[parentPath],
                case .directory? = parent.current[name], let directory = directories[path]
            else {
                try alive("rmdir")
                throw SystemCallError(operation: "rmdir", path: path, errno: ENOENT)
            }
            guard directory.current.isEmpty else {
                throw SystemCallError(operation: "rmdir", path: path, errno: ENOTEMPTY)
            }
            try mutate("rmdir")
            parent.current[name] = nil
            parent.pending.append(.unlink(name))
            directories[parentPath] = parent
        }
    }

    func makeDirectory(_ path: String) throws(SystemCallError) {
        try locked { () throws(SystemCallError) in
            guard let (parentPath, name) = split(path), var parent = directories[parentPath] else {
                throw SystemCallError(operation: "mkdir", path: path, errno: ENOENT)
            }
            guard parent.current[name] == nil else {
                throw SystemCallError(operation: "mkdir", path: path, errno: EEXIST)
            }
            try mutate("mkdir")
            parent.current[name] = .directory
            parent.pending.append(.link(name, .directory))
            directories[parentPath] = parent
            directories[path] = Directory()
        }
    }

    func synchronizeDirectory(_ path: String) throws(SystemCallError) {
        try locked { () throws(SystemCallError) in
            guard var directory = directories[path] else {
                throw SystemCallError(operation: "open", path: path, errno: ENOENT)
            }
            try mutate("fsync")
            directory.durable = directory.current
            directory.pending = []
            directories[path] = directory
        }
    }

    func contentsOfDirectory(_ path: String) throws(SystemCallError) -> [String] {
        try locked { () throws(SystemCallError) -> [String] in
            try alive("opendir")
            guard let directory = directories[path] else {
                throw SystemCallError(operation: "opendir", path: path, errno: ENOENT)
            }
            return directory.current.keys.sorted()
        }
    }

    func kind(of path: String) throws(SystemCallError) -> FileKind? {
        try locked { () throws(SystemCallError) -> FileKind? in
            try alive("stat")
            if path == root { return .directory }
            guard let (directoryPath, name) = split(path), let entry = directories[directoryPath]?.current[name] else {
                return nil
            }
            if case .directory = entry { return .directory }
            return .regularFile
        }
    }

    func tryLockExclusively(_ descriptor: Int32) throws(SystemCallError) -> Bool {
        try locked { () throws(SystemCallError) -> Bool in
            try alive("flock")
            let file = try inode(descriptor, "flock")
            if let holder = file.lockHolder, holder != descriptor { return false }
            file.lockHolder = descriptor
            return true
        }
    }

    func unlock(_ descriptor: Int32) {
        try? locked { () throws(SystemCallError) in
            guard let number = descriptors[descriptor], inodes[number]?.lockHolder == descriptor else { return }
            inodes[number]?.lockHolder = nil
        }
    }

    func pause(milliseconds: Int) {}
}
