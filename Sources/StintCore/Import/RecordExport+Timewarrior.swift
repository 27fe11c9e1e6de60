extension RecordExport {
    /// The rows in the format of `timew export`, with what the conversion had to change.
    public struct TimewarriorOutput: Hashable, Sendable {
        /// `[`, one interval per line (`{"id":…,"start":…,"end":…,"tags":[…],"annotation":…}`, commas
        /// between them), `]`, each line ending in a newline.
        public var text: String
        /// Records with a start or end that had milliseconds, which Timewarrior does not keep: cut to the
        /// second below.
        public var cutToSeconds: [EntityID]
        /// Records shorter than a second, which cutting made empty (Timewarrior, and Stint's import, skip
        /// them).
        public var emptyAfterCut: [EntityID]
        /// Records that start before an earlier record ends: Timewarrior keeps intervals apart, so it may
        /// refuse or change them.
        public var overlapping: [EntityID]
        /// The running records: Timewarrior has at most one open interval.
        public var running: [EntityID]
    }

    /// The rows as `timew export` writes intervals, so that the data can go back to Timewarrior (or to
    /// `stint import timewarrior`).
    ///
    /// - `id`: the interval's number, 1 for the newest, as Timewarrior numbers them;
    /// - `start`, `end`: `YYYYMMDDTHHMMSSZ`, cut to the second; no `end` for a running record;
    /// - `tags`: the record's tag, followed by the names of its comment's last line when that line is a
    ///   `Tags: …` line as an import writes it (`docs/import-export.md` §4); no tags for an untagged
    ///   record, whose comment is kept whole;
    /// - `annotation`: the rest of the comment; absent when nothing is left.
    ///
    /// Importing the result into an empty log gives records with the same start, end, tag and comment
    /// (times cut to the second).
    public func timewarrior() -> TimewarriorOutput {
        var output = TimewarriorOutput(text: "[\n", cutToSeconds: [], emptyAfterCut: [], overlapping: [], running: [])
        var latestEnd: Instant?
        for (index, row) in rows.enumerated() {
            let record = row.record
            if record.start.milliseconds % 1000 != 0 || (record.end.map { $0.milliseconds % 1000 != 0 } ?? false) {
                output.cutToSeconds.append(record.id)
                if let end = record.end, RecordExport.wholeSeconds(end) == RecordExport.wholeSeconds(record.start) {
                    output.emptyAfterCut.append(record.id)
                }
            }
            if let latestEnd, record.start < latestEnd { output.overlapping.append(record.id) }
            let end = record.end ?? Instant(milliseconds: .max)
            latestEnd = latestEnd.map { max($0, end) } ?? end
            if record.isRunning { output.running.append(record.id) }

            var interval = JSONObjectBuilder()
            interval.add("id", .int(Int64(rows.count - index)))
            interval.add("start", .string(RecordExport.timewarriorTime(record.start)))
            interval.add("end", record.end.map(RecordExport.timewarriorTime))
            let (annotation, otherTags) =
                row.tag == nil ? (record.comment, []) : RecordExport.splitTagsLine(record.comment)
            let tags = (row.tag.map { [$0.name] } ?? []) + otherTags
            if !tags.isEmpty { interval.add("tags", .array(tags.map(JSON.string))) }
            interval.add("annotation", annotation)
            output.text += interval.json.encodedString + (index == rows.count - 1 ? "\n" : ",\n")
        }
        output.text += "]\n"
        return output
    }

    /// `YYYYMMDDTHHMMSSZ`, the instant cut to the second below.
    public static func timewarriorTime(_ instant: Instant) -> String {
        let time = LocalDateTime(Instant(milliseconds: wholeSeconds(instant) * 1000), offsetSeconds: 0)
        return CivilDate.pad(time.date.year, 4) + CivilDate.pad(time.date.month, 2) + CivilDate.pad(time.date.day, 2)
            + "T" + CivilDate.pad(time.hour, 2) + CivilDate.pad(time.minute, 2) + CivilDate.pad(time.second, 2) + "Z"
    }

    static func wholeSeconds(_ instant: Instant) -> Int64 {
        let milliseconds = instant.milliseconds
        return milliseconds >= 0 ? milliseconds / 1000 : (milliseconds - 999) / 1000
    }

    /// A comment split into the text before its last line and the names on that line, when the last line
    /// is a `Tags: …` line exactly as an import writes it; otherwise the whole comment and no names.
    public static func splitTagsLine(_ comment: String?) -> (annotation: String?, tags: [String]) {
        guard let comment else { return (nil, []) }
        let lineStart = comment.lastIndex(of: "\n").map { comment.index(after: $0) } ?? comment.startIndex
        let line = comment[lineStart...]
        guard line.hasPrefix("Tags: "), let names = parseTagsLine(line.dropFirst("Tags: ".count)) else {
            return (comment, [])
        }
        let rest = lineStart == comment.startIndex ? "" : String(comment[..<comment.index(before: lineStart)])
        return (rest.isEmpty ? nil : rest, names)
    }

    /// The names of a `Tags:` line's text (`dev, "code, review"`), or nil when writing those names again
    /// would not give the same text.
    static func parseTagsLine(_ text: Substring) -> [String]? {
        var names: [String] = []
        var rest = text
        while true {
            if rest.first == "\"" {
                var end = rest.unicodeScalars.index(after: rest.unicodeScalars.startIndex)
                var escaped = false
                while end < rest.unicodeScalars.endIndex {
                    let scalar = rest.unicodeScalars[end]
                    if scalar == "\"" && !escaped { break }
                    escaped = scalar == "\\" && !escaped
                    end = rest.unicodeScalars.index(after: end)
                }
                guard end < rest.unicodeScalars.endIndex else { return nil }
                let literalEnd = rest.unicodeScalars.index(after: end)
                guard let name = try? JSON.parse(Array(rest[..<literalEnd].utf8)).stringValue else { return nil }
                names.append(name)
                rest = rest[literalEnd...]
            } else {
                let end = rest.firstIndex(of: ",") ?? rest.endIndex
                names.append(String(rest[..<end]))
                rest = rest[end...]
            }
            if rest.isEmpty { break }
            guard rest.hasPrefix(", ") else { return nil }
            rest = rest.dropFirst(2)
        }
        let written = names.map(ImportPlan.CommentBuilder.quote).joined(separator: ", ")
        return written == text ? names : nil
    }
}
