import Glibc
import StintCore

/// One completed interval as every tool stores it.
struct Interval {
    var id: EntityID
    var start: Instant
    var end: Instant
    /// The tag's current name; nil for untagged time (or a deleted tag).
    var tag: String?
    var comment: String?
}

extension LogState {
    /// The completed records as intervals, by start then id.
    var intervals: [Interval] {
        records.values.compactMap { record -> Interval? in
            guard let end = record.end else { return nil }
            let tag = record.tagId.flatMap { tags[$0] }.flatMap { $0.isDeleted ? nil : $0.name }
            return Interval(id: record.id, start: record.start, end: end, tag: tag, comment: record.comment)
        }.sorted { ($0.start, $0.id) < ($1.start, $1.id) }
    }
}

/// Writes the same intervals as a Timewarrior 1.4 database and a Watson 2.1 directory.
enum PeerExport {
    /// `TIMEWARRIORDB`: `timewarrior.cfg`, `data/tags.data` and one `data/YYYY-MM.data` per month of starts
    /// (UTC), with lines `inc <start>Z - <end>Z # <tag> # "<comment>"` as `timew` writes them.
    static func writeTimewarrior(_ intervals: [Interval], to directory: String) throws {
        try makeDirectory(directory)
        try makeDirectory(directory + "/data")
        try write([], to: directory + "/timewarrior.cfg")
        var months: [String: [UInt8]] = [:]
        var counts: [String: Int] = [:]
        for interval in intervals {
            let start = compact(interval.start)
            var line = "inc \(start) - \(compact(interval.end))"
            if let tag = interval.tag {
                line += " # " + quotedIfNeeded(tag)
                counts[tag, default: 0] += 1
            }
            if let comment = interval.comment {
                if interval.tag == nil { line += " #" }
                line += " # \"" + comment.replacingAll("\"", with: "\\\"") + "\""
            }
            line += "\n"
            let month = String(start.prefix(4)) + "-" + String(start.dropFirst(4).prefix(2))
            months[month, default: []].append(contentsOf: Array(line.utf8))
        }
        for (month, bytes) in months { try write(bytes, to: "\(directory)/data/\(month).data") }
        let tags = counts.keys.sorted().map { "  \"\($0)\":{\"count\":\(counts[$0]!)}" }.joined(separator: ",\n")
        try write(Array("{\n\(tags)\n}".utf8), to: directory + "/data/tags.data")
    }

    /// `WATSON_DIR`: `frames` as Watson writes it (a JSON array indented by one space of
    /// `[start, stop, project, id, tags, updated]`, seconds since the epoch) and an empty `state`.
    /// The tag becomes the project (`untagged` when there is none); Watson frames have no comments.
    static func writeWatson(_ intervals: [Interval], to directory: String) throws {
        try makeDirectory(directory)
        var text: [UInt8] = []
        text.reserveCapacity(intervals.count * 110)
        text.append(contentsOf: Array("[".utf8))
        for (index, interval) in intervals.enumerated() {
            var frame = index == 0 ? "\n [\n" : ",\n [\n"
            let start = interval.start.milliseconds / 1000
            let end = interval.end.milliseconds / 1000
            var project: [UInt8] = []
            JSON.appendString(interval.tag ?? "untagged", to: &project)
            let hex = interval.id.uuidString.replacingAll("-", with: "")
            frame += "  \(start),\n  \(end),\n  \(String(decoding: project, as: UTF8.self)),\n  \"\(hex)\",\n"
            frame += "  [],\n  \(end)\n ]"
            text.append(contentsOf: Array(frame.utf8))
        }
        text.append(contentsOf: Array((intervals.isEmpty ? "]" : "\n]").utf8))
        try write(text, to: directory + "/frames")
        try write(Array("{}".utf8), to: directory + "/state")
    }

    /// `20200101T090000Z`.
    static func compact(_ instant: Instant) -> String {
        let iso = instant.iso8601
        return String(iso.prefix(19)).replacingAll("-", with: "").replacingAll(":", with: "") + "Z"
    }

    static func quotedIfNeeded(_ tag: String) -> String {
        tag.utf8.contains(where: { $0 == 0x20 || $0 == 0x22 || $0 == 0x23 }) ? "\"\(tag)\"" : tag
    }

    static func makeDirectory(_ path: String) throws {
        if mkdir(path, 0o755) != 0 && errno != EEXIST { throw GeneratorError("cannot create \(path)") }
    }

    static func write(_ bytes: [UInt8], to path: String) throws {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw GeneratorError("cannot write \(path)") }
        defer { close(descriptor) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            guard count > 0 else { throw GeneratorError("cannot write \(path)") }
            written += count
        }
    }
}

extension String {
    func replacingAll(_ target: Character, with replacement: String) -> String {
        var result = ""
        for character in self {
            if character == target { result += replacement } else { result.append(character) }
        }
        return result
    }
}
