import StintCore

/// Which command made a batch, written as a person would have typed it (`split of 268af4c3 at 10:30`,
/// `undo of "edit 1870c29f --start 08:45"`), inferred from the batch's events and the state before and
/// after it: the log stores events, not command lines, and every command leaves a recognizable batch.
struct BatchDescription {
    let format: TextFormat
    /// The descriptions of earlier batches, by their first seq, for undo and redo.
    var earlier: [Int64: String] = [:]

    /// Describes the batch `events`, recorded at `at`, that turned `before` into `after`.
    func describe(_ events: [DomainEvent], at: Instant, before: AuditState?, after: AuditState?) -> String {
        let tags = after?.tags ?? [:]
        func tagName(_ id: EntityID?) -> String {
            guard let id else { return "\"\"" }
            return Self.word(tags[id]?.name ?? before?.tags[id]?.name ?? TextFormat.short(id))
        }
        func time(_ instant: Instant) -> String {
            format.date(instant) == format.date(at) ? format.time(instant) : "\"\(format.dateTime(instant))\""
        }
        func short(_ id: EntityID) -> String { TextFormat.short(id) }
        func comment(_ text: String?) -> String { text.map { " --comment \(Self.word($0))" } ?? "" }
        var started: [(EntityID, Instant, EntityID?)] = []
        var stopped: [EntityID] = []
        var tracked: [(EntityID, Instant, Instant, EntityID?)] = []
        var comments: [EntityID: String] = [:]
        var edited: [Record] = []
        var deleted: [EntityID] = []
        var canceled: [EntityID] = []
        var imported = 0
        var system: ImportSystem?
        for event in events {
            switch event {
            case .logCreated: return "init"
            case .commandUndone(let tx): return "undo of \(quotedCommand(tx))"
            case .commandRedone(let tx): return "redo of \(quotedCommand(tx))"
            case .deviceJoined: return "sync join"
            case .deviceForked: return "device fork-off"
            case .syncIngested: return "sync"
            case .logRepaired: return "repair"
            case .tagCreated(_, let name, _) where events.count == 1: return "tag add \(Self.word(name))"
            case .tagRenamed(let id, let name):
                return "tag rename \(Self.word(before?.tags[id]?.name ?? short(id))) \(Self.word(name))"
            case .tagArchived(let id): return "tag archive \(tagName(id))"
            case .tagUnarchived(let id): return "tag unarchive \(tagName(id))"
            case .tagDeleted(let id): return "tag delete \(tagName(id))"
            case .timerStarted(let id, let start, let tag, let text):
                started.append((id, start, tag))
                comments[id] = text
            case .timerStopped(let id, _): stopped.append(id)
            case .timerCanceled(let id): canceled.append(id)
            case .recordTracked(let id, let start, let end, let tag, let text):
                tracked.append((id, start, end, tag))
                comments[id] = text
            case .recordEdited(let record, _): edited.append(record)
            case .recordDeleted(let id): deleted.append(id)
            case .recordImported(_, let source), .recordReimported(_, let source):
                imported += 1
                system = source.system
            case .recordUnimported: imported += 1
            case .tagCreated, .tagRestored, .recordRestored: break
            }
        }
        if imported > 0 {
            return "import\(system.map { " \($0.rawValue)" } ?? "") (\(imported) records)"
        }
        if let (id, start, tag) = started.first, started.count == 1 {
            let at = start == at ? "" : " --at \(time(start))"
            return "start \(tagName(tag))\(comment(comments[id]))\(at)" + (stopped.isEmpty ? "" : " --switch")
        }
        if let (_, _, end, _) = tracked.first, tracked.count == 1, let later = edited.first, edited.count == 1,
            later.start == end
        {
            return "split of \(short(later.id)) at \(time(end))"
        }
        if let kept = edited.first, edited.count == 1, let removed = deleted.first, deleted.count == 1 {
            return "join \(short(kept.id)) \(short(removed))"
        }
        if let (id, start, end, tag) = tracked.first, tracked.count == 1, edited.isEmpty {
            return "track \(time(start)) \(time(end)) \(tagName(tag))\(comment(comments[id]))"
        }
        if let record = edited.first, edited.count == 1 {
            return "edit \(short(record.id))" + editOptions(before?.records[record.id], record, tags: tagName)
        }
        if !stopped.isEmpty { return "stop " + stopped.map(short).joined(separator: " ") }
        if let id = canceled.first { return "cancel \(short(id))" }
        if let id = deleted.first { return "delete \(short(id))" }
        return events.map { $0.type.rawValue }.joined(separator: ", ")

        func editOptions(_ old: Record?, _ new: Record, tags: (EntityID?) -> String) -> String {
            guard let old else { return "" }
            var options = ""
            if old.start != new.start { options += " --start \(time(new.start))" }
            if old.end != new.end, let end = new.end { options += " --end \(time(end))" }
            if old.tagId != new.tagId { options += new.tagId == nil ? " --untag" : " --tag \(tags(new.tagId))" }
            if old.comment != new.comment { options += " --comment \(Self.word(new.comment ?? ""))" }
            return options
        }
    }

    /// The description of the batch at `tx` in double quotes, or where it is when it is not known.
    private func quotedCommand(_ tx: Int64) -> String {
        guard let text = earlier[tx] else { return "the batch at seq \(tx)" }
        return "\"\(text)\" (seq \(tx))"
    }

    /// A word as a shell would need it: as is when it is plain, else in double quotes.
    static func word(_ text: String) -> String {
        let plain =
            !text.isEmpty
            && text.unicodeScalars.allSatisfy { scalar in
                scalar.properties.isAlphabetic || ("0"..."9").contains(scalar)
                    || "-_.:/#@+".unicodeScalars.contains(scalar)
            }
        return plain ? text : "\"" + text.replacingOccurrences(of: "\"", with: "\\\"") + "\""
    }
}
