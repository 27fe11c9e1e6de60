import Glibc

/// What is under a directory: every entry by its path relative to the directory, as bytes (a name Stint
/// was given need not be UTF-8), with what it is and what it holds. Symbolic links are not followed.
struct Tree: Equatable {
    enum Entry: Equatable {
        case directory
        case file(size: Int, hash: UInt64)
        case link(target: [UInt8])
        case other(mode: UInt32)
    }

    var entries: [[UInt8]: Entry] = [:]

    /// Reads the tree under `root`.
    init(_ root: String) {
        let descriptor = open(root, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        walk(descriptor, prefix: [])
    }

    private mutating func walk(_ directory: Int32, prefix: [UInt8]) {
        guard let stream = fdopendir(directory) else {
            close(directory)
            return
        }
        defer { closedir(stream) }
        while let entry = readdir(stream) {
            let name = Tree.name(of: entry)
            if name == [0x2E] || name == [0x2E, 0x2E] { continue }
            let path = prefix.isEmpty ? name : prefix + [0x2F] + name
            var info = stat()
            guard fstatat(directory, name.cString, &info, AT_SYMLINK_NOFOLLOW) == 0 else { continue }
            switch info.st_mode & S_IFMT {
            case S_IFDIR:
                entries[path] = .directory
                let child = openat(directory, name.cString, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
                if child >= 0 { walk(child, prefix: path) }
            case S_IFREG:
                let file = openat(directory, name.cString, O_RDONLY | O_NOFOLLOW | O_CLOEXEC)
                var hash: UInt64 = 0xcbf2_9ce4_8422_2325
                if file >= 0 {
                    var buffer = [UInt8](repeating: 0, count: 1 << 16)
                    while true {
                        let count = buffer.withUnsafeMutableBytes { read(file, $0.baseAddress, $0.count) }
                        if count <= 0 { break }
                        for byte in buffer[0..<count] { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
                    }
                    close(file)
                }
                entries[path] = .file(size: Int(info.st_size), hash: hash)
            case S_IFLNK:
                var target = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
                let count = readlinkat(directory, name.cString, &target, target.count)
                entries[path] = .link(target: target.prefix(max(0, count)).map { UInt8(bitPattern: $0) })
            default:
                entries[path] = .other(mode: info.st_mode & S_IFMT)
            }
        }
    }

    private static func name(of entry: UnsafeMutablePointer<dirent>) -> [UInt8] {
        withUnsafeBytes(of: &entry.pointee.d_name) { raw in Array(raw.prefix { $0 != 0 }) }
    }

    /// Removes `root` and everything under it.
    static func remove(_ root: String) {
        let descriptor = open(root, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
        if descriptor >= 0 { empty(descriptor) }
        if rmdir(root) != 0 && errno != ENOENT { unlink(root) }
    }

    private static func empty(_ directory: Int32) {
        guard let stream = fdopendir(directory) else {
            close(directory)
            return
        }
        defer { closedir(stream) }
        var names: [[UInt8]] = []
        while let entry = readdir(stream) {
            let name = Tree.name(of: entry)
            if name != [0x2E] && name != [0x2E, 0x2E] { names.append(name) }
        }
        for name in names {
            let child = openat(directory, name.cString, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC)
            if child >= 0 {
                empty(child)
                unlinkat(directory, name.cString, AT_REMOVEDIR)
            } else {
                unlinkat(directory, name.cString, 0)
            }
        }
    }
}

extension Array where Element == UInt8 {
    /// The bytes with a terminating NUL, as C functions take them.
    var cString: [CChar] { map { CChar(bitPattern: $0) } + [0] }
}
