import Glibc

/// What the file system says of a file without reading it: its identity (device and inode), size, and the
/// times of its last modification and last status change, to the nanosecond. Any write to the file, a
/// rename over it or a copy in its place changes one of them (docs/log-format.md §5.4).
@_spi(FaultInjection)
public struct FileFingerprint: Hashable, Sendable {
    public var device: UInt64
    public var inode: UInt64
    public var size: Int64
    /// The last modification, in nanoseconds since 1970.
    public var modified: Int64
    /// The last status change (ctime), in nanoseconds since 1970: set by the kernel on every write, never by a
    /// program.
    public var changed: Int64

    public init(device: UInt64, inode: UInt64, size: Int64, modified: Int64, changed: Int64) {
        self.device = device
        self.inode = inode
        self.size = size
        self.modified = modified
        self.changed = changed
    }

    init(_ status: stat) {
        func nanoseconds(_ time: timespec) -> Int64 { Int64(time.tv_sec) &* 1_000_000_000 &+ Int64(time.tv_nsec) }
        self.init(
            device: UInt64(status.st_dev), inode: UInt64(status.st_ino), size: Int64(status.st_size),
            modified: nanoseconds(status.st_mtim), changed: nanoseconds(status.st_ctim))
    }
}

extension FileFingerprint {
    /// `device:inode:size:mtime-ns:ctime-ns` in decimal, device and inode as signed 64-bit integers
    /// (docs/log-format.md §5.4).
    public var text: String {
        var bytes: [UInt8] = []
        appendText(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends ``text``.
    func appendText(to bytes: inout [UInt8]) {
        for (index, value) in [Int64(bitPattern: device), Int64(bitPattern: inode), size, modified, changed]
            .enumerated()
        {
            if index > 0 { bytes.append(0x3A) }
            DecimalText.append(value, to: &bytes)
        }
    }

    /// A fingerprint from its ``text``; nil for anything else.
    init?(text: ArraySlice<UInt8>) {
        let parts = text.split(separator: 0x3A, omittingEmptySubsequences: false).map(DecimalText.value)
        guard parts.count == 5, let device = parts[0], let inode = parts[1], let size = parts[2],
            let modified = parts[3], let changed = parts[4]
        else { return nil }
        self.init(
            device: UInt64(bitPattern: device), inode: UInt64(bitPattern: inode), size: size, modified: modified,
            changed: changed)
    }

    /// A fingerprint from its ``text``; nil for anything else.
    public init?(text: Substring) {
        self.init(text: ArraySlice(text.utf8))
    }
}

extension LogFileSystem {
    /// A file system that cannot tell a file's fingerprint: every sealed segment is then checked by its
    /// content at each open.
    public func fingerprint(of path: String) throws(SystemCallError) -> FileFingerprint? { nil }

    public func stampChangeTime(_ descriptor: Int32) throws(SystemCallError) -> Int64? { nil }
}
