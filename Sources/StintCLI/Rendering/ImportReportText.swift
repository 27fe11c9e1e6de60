import StintCore

/// The text and JSON an import prints: what the file held (``ImportReport``) and what the import did to
/// the log (``ImportChanges``). Nothing that was changed, left out or moved into a comment goes unsaid.
struct ImportReportText {
    let report: ImportReport
    let changes: ImportChanges
    /// The files read, as named on the command line.
    let inputs: [String]
    let dryRun: Bool
    let forced: Bool
    let format: TextFormat
    /// The log's tags, with those the import creates.
    let tags: [EntityID: Tag]

    /// How many entries of a list the text shows; `--json` has all of them.
    static let listLimit = 10

    init(
        report: ImportReport, changes: ImportChanges, inputs: [String], dryRun: Bool, forced: Bool, format: TextFormat,
        tags: [EntityID: Tag]
    ) {
        self.report = report
        self.changes = changes
        self.inputs = inputs
        self.dryRun = dryRun
        self.forced = forced
        self.format = format
        var all = tags
        for tag in changes.createdTags { all[tag.id] = tag }
        self.tags = all
    }

    func json(firstSeq: Int64?) -> JSON {
        var object = JSONObjectBuilder()
        object.add("dryRun", .bool(dryRun))
        object.add("files", .array(inputs.map(JSON.string)))
        object.add("seq", firstSeq.map { .int($0) })
        object.add("report", report.json)
        object.add("changes", changes.json)
        return object.json
    }

    var text: String {
        var lines: [String] = []
        let intervals = report.read == 1 ? "1 interval" : "\(report.read) intervals"
        lines.append(
            (dryRun ? "Dry run, nothing appended: an import" : "Imported") + " from \(changes.system.title) ("
                + inputs.joined(separator: ", ") + "), \(intervals) read:")
        let verb = dryRun ? "to add" : "added"
        let running = changes.added.count { $0.record.isRunning }
        var counts = "  \(changes.added.count) \(verb)" + (running > 0 ? " (\(running) running)" : "")
        counts += ", \(changes.updated.count) \(dryRun ? "to update" : "updated"), \(changes.unchanged) unchanged"
        if !changes.kept.isEmpty { counts += ", \(changes.kept.count) with edits made in Stint kept" }
        if !changes.leftDeleted.isEmpty { counts += ", \(changes.leftDeleted.count) deleted in Stint" }
        if !report.skipped.isEmpty { counts += ", \(report.skipped.count) skipped" }
        lines.append(counts + ".")
        if !changes.createdTags.isEmpty {
            lines.append(
                "  \(dryRun ? "Tags to create" : "Tags created") (\(changes.createdTags.count)): "
                    + changes.createdTags.map(\.name).joined(separator: ", "))
        }
        section(&lines, "Skipped, holding no time", report.skipped) { skip in
            let reason: String
            switch skip.reason {
            case .endBeforeStart: reason = "ends before it starts"
            case .empty: reason = "ends when it starts"
            case .duplicateIdentity: reason = "an earlier interval has the same \(identityName)"
            }
            return "\(skip.position): \(reason) (\(span(skip.start, skip.end)))"
        }
        section(&lines, dryRun ? "To update" : "Updated", changes.updated) { update in
            var text = "\(recordLine(update.after)): "
            if update.completed {
                text += "completed (it was running)"
            } else if update.changed.isEmpty {
                text += "now stands for \(changes.system.title)'s \(identityName) \(update.source.identity)"
            } else {
                text += fields(update.changed) + " changed in \(changes.system.title)"
            }
            if !update.overwritten.isEmpty { text += "; replaced your edit of " + fields(update.overwritten) }
            if !update.kept.isEmpty { text += "; kept your edit of " + fields(update.kept) }
            return text
        }
        section(&lines, "Kept as edited in Stint", changes.kept) { kept in
            "\(recordLine(kept.record)): " + fields(kept.fields) + (kept.fields.count == 1 ? " differs" : " differ")
                + " from \(changes.system.title)"
        }
        section(&lines, "Deleted in Stint, left deleted", changes.leftDeleted) { deleted in
            "\(TextFormat.short(deleted.recordId)) (\(deleted.position))"
        }
        section(
            &lines,
            "Imported earlier, no longer in the file, kept (`stint delete ID` removes one)", changes.vanished
        ) { vanished in recordLine(vanished.record) }
        notes(&lines)
        return lines.joined(separator: "\n") + "\n"
    }

    /// The lines about names and comments: what went into comments, what was cut, replaced or merged.
    private func notes(_ lines: inout [String]) {
        var notes: [String] = []
        if report.commentsWithExtraTags > 0 {
            let count = report.commentsWithExtraTags
            notes.append(
                "\(count) \(count == 1 ? "comment has" : "comments have") a line \"Tags: …\" with the tags "
                    + "that are not the record's tag.")
        }
        for name in report.namesInComments {
            notes.append(
                "\(quoted(name.name)) cannot be a tag (1–64 characters, no control characters); it is in the "
                    + "comment of record \(TextFormat.short(name.recordId)), from \(name.position).")
        }
        for cut in report.truncated {
            notes.append(
                "The comment of record \(TextFormat.short(cut.recordId)), from \(cut.position), was cut from "
                    + "\(cut.length) to 500 characters; --json has the full text.")
        }
        for spellings in report.mergedTagSpellings {
            notes.append("\(spellings.map(quoted).joined(separator: ", ")) differ only in case: one tag.")
        }
        for member in report.unknownMembers {
            notes.append(
                "\(quoted(member.name)), in \(member.count) \(member.count == 1 ? "interval" : "intervals") "
                    + "(the first at \(member.first)), is not imported.")
        }
        adjustment(&notes, report.controlCharactersReplaced, "control characters in the annotation replaced")
        adjustment(&notes, report.roundedToMillisecond, "times rounded to the millisecond")
        if forced {
            adjustment(&notes, report.longerThanMaximum, "longer than 7 days, imported as they are (--force)")
        }
        guard !notes.isEmpty else { return }
        lines.append("Notes:")
        lines += notes.map { "  " + $0 }
    }

    private func adjustment(_ notes: inout [String], _ list: [ImportReport.Adjustment], _ what: String) {
        guard !list.isEmpty else { return }
        let shown = list.prefix(Self.listLimit).map { "\(TextFormat.short($0.recordId)) (\($0.position))" }
        let more = list.count > Self.listLimit ? ", and \(list.count - Self.listLimit) more" : ""
        notes.append("\(list.count) with \(what): " + shown.joined(separator: ", ") + more + ".")
    }

    private func section<Item>(_ lines: inout [String], _ title: String, _ items: [Item], _ line: (Item) -> String) {
        guard !items.isEmpty else { return }
        lines.append("\(title) (\(items.count)):")
        for item in items.prefix(Self.listLimit) { lines.append("  " + line(item)) }
        if items.count > Self.listLimit {
            lines.append("  … and \(items.count - Self.listLimit) more (--json lists them all)")
        }
    }

    private var identityName: String {
        changes.system == .timewarrior ? "start" : "frame id"
    }

    private func recordLine(_ record: Record) -> String {
        "\(TextFormat.short(record.id))  \(span(record.start, record.end))  "
            + format.tagName(record.tagId, tags: tags)
    }

    private func span(_ start: Instant, _ end: Instant?) -> String {
        guard let end else { return "\(format.dateTime(start))–running" }
        let sameDay = format.date(start) == format.date(end)
        return "\(format.dateTime(start))–\(sameDay ? format.time(end) : format.dateTime(end))"
    }

    private func fields(_ fields: [ImportChanges.Field]) -> String {
        fields.map(\.rawValue).joined(separator: ", ")
    }

    private func quoted(_ name: String) -> String {
        let shown = name.count > 40 ? String(name.prefix(40)) + "…" : name
        return JSON.string(shown).encodedString
    }
}
