import StintCore
@_spi(FaultInjection) import StintLog

/// A replica's `compared` file (docs/sync.md, "How fast"): per other device, the ``LastSegmentVouch`` of the
/// last comparison that found its copy in the sync folder ending with its mirror's last segment, byte for byte.
/// While the vouch holds (four `stat`s), an ingestion knows the device wrote nothing new without listing both
/// directories and reading both segments. A cache: a missing, torn or stale file costs a comparison, never an
/// event.
///
/// The file is a header line `stint-compared 1`, one line per device — `<device> <segment> <fingerprint>` and
/// three more fingerprints (the mirror's directory and segment, then the folder copy's) — and the SHA-256 of
/// those lines in hex.
struct ComparedCopies: Hashable {
    static let name = "compared"
    static let header = "stint-compared 1"

    var vouches: [DeviceID: LastSegmentVouch] = [:]

    init() {}

    /// The file's bytes.
    var bytes: [UInt8] {
        var text = Self.header + "\n"
        for device in vouches.keys.sorted() { text += "\(device) \(vouches[device]!.line)\n" }
        return DigestSealedText.seal(Array(text.utf8))
    }

    /// Parses a `compared` file; nil for anything but the exact form with a matching digest.
    init?(bytes: [UInt8]) {
        guard let body = DigestSealedText.body(of: bytes) else { return nil }
        let lines = String(decoding: body, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false)
        guard lines.count >= 2, lines[0] == Self.header, lines[lines.count - 1].isEmpty else { return nil }
        for line in lines[1..<(lines.count - 1)] {
            guard let space = line.firstIndex(of: " "), let device = DeviceID(line[..<space]),
                let vouch = LastSegmentVouch(line: line[line.index(after: space)...])
            else { return nil }
            vouches[device] = vouch
        }
    }
}

extension Space {
    /// The replica's `compared` file; empty when there is none or it does not parse.
    func comparedCopies() -> ComparedCopies {
        options.fileSystem.contentsOfFile(Space.path(log, ComparedCopies.name), atMost: 1 << 20).flatMap(
            ComparedCopies.init(bytes:)) ?? ComparedCopies()
    }

    /// Writes the replica's `compared` file (not synced: a cache).
    func record(_ copies: ComparedCopies) {
        options.fileSystem.replaceCacheFile(Space.path(log, ComparedCopies.name), with: copies.bytes)
    }

    /// Whether the folder's copy of `device`'s log ends with the mirror's last segment, byte for byte: by the
    /// vouch `copies` holds for it, else by comparing them (``LastSegmentComparison``), remembering in `copies`
    /// the vouch of a comparison that found them the same once every file it read was settled against `stamp`
    /// (taken once, the first time one is needed: the own log's `lock` file given a change time).
    func sameAsFolder(
        _ device: DeviceID, in copies: inout ComparedCopies, stamp: inout LastSegmentVouch.Stamp??
    ) -> Bool {
        let (mirror, copy) = (mirrorPath(of: device), folderPath(of: device))
        if let vouch = copies.vouches[device], vouch.holds(prefix: mirror, whole: copy, fileSystem: options.fileSystem)
        {
            return true
        }
        if stamp == nil { stamp = .some(comparisonStamp()) }
        let (comparison, vouch) = LastSegmentComparison.vouched(
            mirror, in: copy, fileSystem: options.fileSystem, stamp: stamp!)
        copies.vouches[device] = vouch
        return comparison == .same
    }

    /// A change time given to the own log's `lock` file now, on its file system; nil when that cannot be done
    /// (nothing is vouched for then).
    private func comparisonStamp() -> LastSegmentVouch.Stamp? {
        let fileSystem = options.fileSystem
        let lock = Space.path(log, "lock")  // the own log's lock file (docs/log-format.md §1)
        guard let descriptor = try? fileSystem.openFile(lock, .readWrite) else { return nil }
        defer { fileSystem.close(descriptor) }
        guard let changed = try? fileSystem.stampChangeTime(descriptor),
            let device = try? fileSystem.fingerprint(of: lock)?.device
        else { return nil }
        return LastSegmentVouch.Stamp(device: device, changed: changed)
    }
}
