/// Something the merged fold of a space resolved by one of its rules (decision 0007 §8), for
/// `stint conflicts`: the rule, what it is about, the events involved and what happened.
///
/// A conflict is not damage: the fold applied (or ignored) the events by its rule and goes on. ``line`` is
/// the text `stint conflicts` prints, ``json`` the object `stint conflicts --json` prints; ``isMinor`` marks
/// what is listed only under `--all` (rule 4, and an import of the same source on two devices).
public struct Conflict: Hashable, Sendable {
    /// What the rule decided, with the values its line shows (times already in the log's zone, as
    /// `2026-11-29 10:40`).
    public enum Detail: Hashable, Sendable {
        /// Rule 1: a stop of a record that another stop had ended (`endedBy` nil when it never ran here).
        case stoppedTwice(endedBy: EventRef?, end: String?, ignored: EventRef, ignoredEnd: String)
        /// Rule 1: a cancel of a timer that was not running.
        case canceledNotRunning(ignored: EventRef)
        /// Rule 2: a switch on another device left this timer running, not having seen it start.
        case keptRunning(switchedBy: EventRef, startedBy: EventRef)
        /// Rule 3: a concurrent event had set `field` to `lost`; `won` replaced it.
        case fieldLost(field: String, lost: String, lostBy: EventRef, won: String, wonBy: EventRef)
        /// Rule 3: concurrent edits would have made the record end before its start; it ends at its start.
        case spanClamped(by: EventRef)
        /// Rule 4: concurrent edits of different fields, both applied.
        case bothApplied(field: String, by: EventRef, otherField: String, otherBy: EventRef)
        /// Rule 5: an event on a deleted record, ignored (`what` is `edit`, `stop`, `cancel`, …).
        case ignoredOnDeleted(what: String, ignored: EventRef, deletedBy: EventRef?)
        /// Rule 6: a tag created again with the same (derived) id: one tag, its colour from `colorBy`.
        case createdTwice(name: String, first: EventRef, second: EventRef, color: String, colorBy: EventRef)
        /// Rule 6 (minor): a record imported again with the same (derived) id, applied as a re-import.
        case importedTwice(first: EventRef?, second: EventRef)
        /// Rule 7: concurrent renames; the later in merge order won.
        case renameLost(lost: String, lostBy: EventRef, won: String, wonBy: EventRef)
        /// Rule 8: two live tags share a name; `holder` keeps it for lookups, `other` is shown as `shownAs`.
        case nameShared(
            name: String, holder: EntityID, since: EventRef?, other: EntityID, otherBy: EventRef,
            shownAs: String)
        /// Rule 11: an undo reverted only its own fields and kept `field`, set since by another event.
        case undoKept(undo: EventRef, field: String, value: String, keptBy: EventRef)
        /// Rule 0 (not one of §8's rules): an event created a record whose id was already used (a bug or
        /// tampering, since record ids are random); ignored.
        case idReused(ignored: EventRef)
    }

    /// What a conflict is about.
    public enum Subject: Hashable, Sendable {
        case record(EntityID)
        case tag(EntityID)
        /// A tag name (rule 8).
        case name(String)
    }

    /// The rule of §8 (1–8, 11), or 0 for an id used twice.
    public var rule: Int
    public var subject: Subject
    public var detail: Detail
    /// Listed only under `stint conflicts --all`.
    public var isMinor: Bool

    public init(rule: Int, subject: Subject, detail: Detail, isMinor: Bool = false) {
        self.rule = rule
        self.subject = subject
        self.detail = detail
        self.isMinor = isMinor
    }

    /// The events involved, in merge order.
    public var events: [EventRef] {
        let refs: [EventRef?]
        switch detail {
        case .stoppedTwice(let endedBy, _, let ignored, _): refs = [endedBy, ignored]
        case .canceledNotRunning(let ignored), .idReused(let ignored): refs = [ignored]
        case .keptRunning(let switchedBy, let startedBy): refs = [startedBy, switchedBy]
        case .fieldLost(_, _, let lostBy, _, let wonBy): refs = [lostBy, wonBy]
        case .spanClamped(let by): refs = [by]
        case .bothApplied(_, let by, _, let otherBy): refs = [by, otherBy]
        case .ignoredOnDeleted(_, let ignored, let deletedBy): refs = [ignored, deletedBy]
        case .createdTwice(_, let first, let second, _, _): refs = [first, second]
        case .importedTwice(let first, let second): refs = [first, second]
        case .renameLost(_, let lostBy, _, let wonBy): refs = [lostBy, wonBy]
        case .nameShared(_, _, let since, _, let otherBy, _): refs = [since, otherBy]
        case .undoKept(let undo, _, _, let keptBy): refs = [keptBy, undo]
        }
        return refs.compactMap { $0 }.sorted { $0.position < $1.position }
    }

    /// The subject as `stint conflicts` shows it: a record's or tag's first eight digits, or a quoted name.
    var subjectText: String {
        switch subject {
        case .record(let id): return MessageFormat.short(id)
        case .tag(let id): return "tag \(MessageFormat.short(id))"
        case .name(let name): return "name \"\(name)\""
        }
    }

    /// The `stint conflicts` line: `rule 3  268af4c3  comment: "draft" (9f8e7d6c:14) lost to "final" (a1b2c3d4:10)`.
    public var line: String {
        let head = "rule \(rule)".padding(toLength: 7, withPad: " ", startingAt: 0) + " " + subjectText + "  "
        switch detail {
        case .stoppedTwice(let endedBy, let end, let ignored, let ignoredEnd):
            let ended = endedBy.map { "\($0) ended it \(end ?? "?")" } ?? "it was not running"
            return head + "stopped twice: \(ended); \(ignored) (\(ignoredEnd)) ignored"
        case .canceledNotRunning(let ignored):
            return head + "canceled when not running: \(ignored) ignored"
        case .keptRunning(let switchedBy, let startedBy):
            return head + "kept running: \(switchedBy) switched without having seen it start (\(startedBy))"
        case .fieldLost(let field, let lost, let lostBy, let won, let wonBy):
            return head + "\(field): \(lost) (\(lostBy)) lost to \(won) (\(wonBy))"
        case .spanClamped(let by):
            return head + "end before start after concurrent edits: ends at its start (\(by))"
        case .bothApplied(let field, let by, let otherField, let otherBy):
            return head + "\(field) from \(by) and \(otherField) from \(otherBy) both applied"
        case .ignoredOnDeleted(let what, let ignored, let deletedBy):
            return head + "\(what) \(ignored) ignored: deleted" + (deletedBy.map { " by \($0)" } ?? "")
        case .createdTwice(let name, let first, let second, let color, let colorBy):
            return
                "rule \(rule)  tag \(name)  created on \(first) and \(second): one tag; colour \(color) from \(colorBy)"
        case .importedTwice(let first, let second):
            return head + "imported on \(first.map(\.description) ?? "?") and \(second): one record"
        case .renameLost(let lost, let lostBy, let won, let wonBy):
            return head + "renamed \"\(lost)\" (\(lostBy)) lost to \"\(won)\" (\(wonBy))"
        case .nameShared(_, let holder, let since, let other, let otherBy, let shownAs):
            return head + "held by tag \(MessageFormat.short(holder))"
                + (since.map { " since \($0)" } ?? "")
                + "; tag \(MessageFormat.short(other)) (\(otherBy)) shown as \"\(shownAs)\""
        case .undoKept(let undo, let field, let value, let keptBy):
            return head + "undo \(undo) kept \(field) \(value) set by \(keptBy) after the undone edit"
        case .idReused(let ignored):
            return head + "id used again by \(ignored): ignored"
        }
    }

    /// The object `stint conflicts --json` prints: `rule`, `subject`, `events` (full device ids), `minor`
    /// and `line`.
    public var json: JSON {
        let subject: JSON
        switch self.subject {
        case .record(let id): subject = .object([JSONField("record", .string(id.uuidString))])
        case .tag(let id): subject = .object([JSONField("tag", .string(id.uuidString))])
        case .name(let name): subject = .object([JSONField("name", .string(name))])
        }
        return .object([
            JSONField("rule", .int(Int64(rule))), JSONField("subject", subject),
            JSONField("events", .array(events.map(\.json))), JSONField("minor", .bool(isMinor)),
            JSONField("line", .string(line)),
        ])
    }
}
