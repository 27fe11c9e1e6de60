/// A ``LastSegmentComparison/same`` remembered by the fingerprints of what the comparison read: both log
/// directories (their listings: which segment is last) and the last segment of each, taken when every one was
/// *settled* — last changed before a change time stamped on their file system before the comparison began
/// (docs/log-format.md §5.4). Any later change to a file or a directory gives it a later change time (a
/// writer replaces a `format` file by a rename, which changes its directory), so while all four keep their
/// fingerprints the comparison would find the same again: ``holds(prefix:whole:fileSystem:)``
/// says so with four `stat`s instead of two listings and reading both segments.
public struct LastSegmentVouch: Hashable, Sendable {
    /// The last segment of both.
    public var segment: String
    var prefixDirectory: FileFingerprint
    var prefixSegment: FileFingerprint
    var wholeDirectory: FileFingerprint
    var wholeSegment: FileFingerprint

    /// A change time stamped on a file system (``LogFileSystem/stampChangeTime(_:)``), and that file
    /// system's device: only files of that device are compared with it.
    public struct Stamp: Hashable, Sendable {
        public var device: UInt64
        public var changed: Int64

        public init(device: UInt64, changed: Int64) {
            self.device = device
            self.changed = changed
        }
    }

    /// Whether the log directories at `prefix` and `whole` (those of the comparison) and their last segment
    /// still have the fingerprints this vouch remembers.
    @_spi(FaultInjection)
    public func holds(prefix: String, whole: String, fileSystem: any LogFileSystem) -> Bool {
        let now = Self.fingerprints(segment, prefix: prefix, whole: whole, fileSystem: fileSystem)
        return now == [prefixDirectory, prefixSegment, wholeDirectory, wholeSegment]
    }

    /// One line: the segment's name and the four fingerprints (`device:inode:size:mtime-ns:ctime-ns`).
    public var line: String {
        ([segment] + [prefixDirectory, prefixSegment, wholeDirectory, wholeSegment].map(\.text)).joined(separator: " ")
    }

    /// A vouch from its ``line``; nil for anything else.
    public init?(line: Substring) {
        let fields = line.split(separator: " ", omittingEmptySubsequences: false)
        guard fields.count == 5, LogDirectory.firstSeq(ofSegment: String(fields[0])) != nil else { return nil }
        let prints = fields.dropFirst().compactMap { FileFingerprint(text: $0) }
        guard prints.count == 4 else { return nil }
        segment = String(fields[0])
        (prefixDirectory, prefixSegment, wholeDirectory, wholeSegment) = (prints[0], prints[1], prints[2], prints[3])
    }

    init(segment: String, fingerprints: [FileFingerprint]) {
        self.segment = segment
        (prefixDirectory, prefixSegment, wholeDirectory, wholeSegment) =
            (fingerprints[0], fingerprints[1], fingerprints[2], fingerprints[3])
    }

    /// The fingerprints of both directories and of `segment` in each; nil when one cannot be taken.
    static func fingerprints(_ segment: String, prefix: String, whole: String, fileSystem: any LogFileSystem)
        -> [FileFingerprint]?
    {
        var prints: [FileFingerprint] = []
        for path in [
            prefix, LogDirectory(path: prefix, fileSystem: fileSystem).path(segment), whole,
            LogDirectory(path: whole, fileSystem: fileSystem).path(segment),
        ] {
            guard let print = try? fileSystem.fingerprint(of: path) else { return nil }
            prints.append(print)
        }
        return prints
    }
}

extension LastSegmentComparison {
    /// Compares as ``of(_:in:fileSystem:)`` does and, when it finds ``same`` and both directories and both
    /// segments last changed before `stamp` (stamped on their file system before this began), the vouch that
    /// remembers it. Nothing that changed after the stamp is vouched for: the bytes the comparison read are
    /// those of the fingerprints.
    @_spi(FaultInjection)
    public static func vouched(
        _ prefix: String, in whole: String, fileSystem: any LogFileSystem, stamp: LastSegmentVouch.Stamp?
    ) -> (comparison: LastSegmentComparison, vouch: LastSegmentVouch?) {
        let (comparison, segment) = compare(prefix, in: whole, fileSystem: fileSystem)
        guard comparison == .same, let stamp, let segment,
            let prints = LastSegmentVouch.fingerprints(segment, prefix: prefix, whole: whole, fileSystem: fileSystem),
            prints.allSatisfy({ $0.device == stamp.device && $0.changed < stamp.changed })
        else { return (comparison, nil) }
        return (comparison, LastSegmentVouch(segment: segment, fingerprints: prints))
    }
}
