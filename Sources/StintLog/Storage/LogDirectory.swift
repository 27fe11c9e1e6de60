import Glibc

/// The files of a log directory: names, the `format` file, and the listing of segments.
struct LogDirectory {
    let path: String
    let fileSystem: any LogFileSystem

    /// The text of the `format` file of a log of format 1 (no `device` and `hlc`).
    static let formatText = Array("stint-log 1\n".utf8)
    /// The text of the `format` file of a log of format 2 (a device's log: docs/decisions/0007 §2).
    static let formatText2 = Array("stint-log 2\n".utf8)
    static let formatName = "format"
    static let lockName = "lock"
    static let segmentSuffix = ".jsonl.zst"
    static let temporarySuffix = ".tmp"

    /// `path/name`.
    func path(_ name: String) -> String {
        path.hasSuffix("/") ? path + name : path + "/" + name
    }

    /// The file name of the segment whose first event is `seq`: 20 digits, zero-padded.
    static func segmentName(firstSeq seq: Int64) -> String {
        let digits = String(seq)
        return String(repeating: "0", count: max(0, 20 - digits.count)) + digits + segmentSuffix
    }

    /// The first `seq` a segment file name stands for; nil when the name is not a segment's.
    static func firstSeq(ofSegment name: String) -> Int64? {
        let bytes = Array(name.utf8)
        guard bytes.count == 20 + 10, name.hasSuffix(segmentSuffix) else { return nil }
        var value: Int64 = 0
        for byte in bytes[0..<20] {
            guard byte >= 0x30 && byte <= 0x39 else { return nil }
            let (scaled, overflow) = value.multipliedReportingOverflow(by: 10)
            guard !overflow else { return nil }
            let (sum, overflow2) = scaled.addingReportingOverflow(Int64(byte - 0x30))
            guard !overflow2 else { return nil }
            value = sum
        }
        return value >= 1 ? value : nil
    }

    /// The segments of a log, in `seq` order, and the temporary files left by interrupted operations.
    struct Listing {
        var segments: [(firstSeq: Int64, name: String)]
        var temporaryFiles: [String]
        /// Whether the `repairing` file of an interrupted repair is there (``RepairMarker``).
        var repairPending = false
        /// The segments a repair keeps after its gap, waiting under `<segment>.kept` names to be put in place,
        /// in `seq` order.
        var keptSegments: [String] = []
    }

    /// The suffix of a segment a repair keeps after its gap while it waits to be put in place (§5.7).
    static let keptSuffix = ".kept"

    /// Checks that `path` is a log this build can read, and returns its format version (1 or 2).
    ///
    /// - Throws: ``LogError/Code/notFound`` when nothing is there, ``LogError/Code/notALog`` when it is not
    ///   a log directory, ``LogError/Code/newerFormat`` when the `format` file names a newer version.
    @discardableResult
    func checkFormat() throws(LogError) -> Int {
        let kind: FileKind?
        do {
            kind = try fileSystem.kind(of: path)
        } catch {
            throw LogError.io(error, "look at the log", path: path)
        }
        guard let kind else {
            throw LogError(.notFound, "no log at \(path): the directory does not exist; create it with `stint init`")
        }
        guard kind == .directory else {
            throw LogError(.notALog, "\(path) is not a log directory (a log is a directory with a format file)")
        }
        let formatPath = self.path(LogDirectory.formatName)
        let text: [UInt8]
        do {
            let descriptor = try fileSystem.openFile(formatPath, .readOnly)
            defer { fileSystem.close(descriptor) }
            text = try ByteSource.file(descriptor: descriptor, fileSystem: fileSystem).readFully(count: 64, at: 0)
        } catch {
            if error.errno == ENOENT {
                throw LogError(
                    .notALog,
                    "\(path) is not a Stint log: it has no format file (a log is created by `stint init`; an "
                        + "interrupted `stint init` can simply be run again)")
            }
            throw LogError.io(error, "read the log's format file", path: formatPath)
        }
        if text == LogDirectory.formatText { return 1 }
        if text == LogDirectory.formatText2 { return 2 }
        let prefix = Array("stint-log ".utf8)
        if text.count > prefix.count + 1, text.starts(with: prefix), text.last == 0x0A,
            let version = Int(String(decoding: text[prefix.count..<(text.count - 1)], as: UTF8.self)), version > 2
        {
            throw LogError(
                .newerFormat,
                "\(path) was written by a newer Stint (log format \(version); this build reads formats 1 and 2): "
                    + "upgrade Stint")
        }
        throw LogError(
            .notALog, "\(path) is not a Stint log: its format file does not say `stint-log 1` or `stint-log 2`")
    }

    /// Opens segment `name` for reading; the caller closes the descriptor.
    func openSegment(_ name: String) throws(LogError) -> Int32 {
        do {
            return try fileSystem.openFile(path(name), .readOnly)
        } catch {
            throw LogError.io(error, "open segment \(name)", path: path(name))
        }
    }

    /// The segments and temporary files in the directory.
    func listing() throws(LogError) -> Listing {
        let names: [String]
        do {
            names = try fileSystem.contentsOfDirectory(path)
        } catch {
            throw LogError.io(error, "list the log directory", path: path)
        }
        var segments: [(firstSeq: Int64, name: String)] = []
        var temporaryFiles: [String] = []
        var kept: [(firstSeq: Int64, name: String)] = []
        for name in names {
            if let seq = LogDirectory.firstSeq(ofSegment: name) {
                segments.append((seq, name))
            } else if name.hasSuffix(LogDirectory.temporarySuffix) {
                temporaryFiles.append(name)
            } else if name.hasSuffix(LogDirectory.keptSuffix),
                let seq = LogDirectory.firstSeq(ofSegment: String(name.dropLast(LogDirectory.keptSuffix.count)))
            {
                kept.append((seq, name))
            }
        }
        segments.sort { $0.firstSeq < $1.firstSeq }
        var listing = Listing(segments: segments, temporaryFiles: temporaryFiles.sorted())
        listing.repairPending = names.contains(RepairMarker.name)
        listing.keptSegments = kept.sorted { $0.firstSeq < $1.firstSeq }.map(\.name)
        return listing
    }
}
