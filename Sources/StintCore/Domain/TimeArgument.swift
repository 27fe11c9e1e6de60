/// Reads the time arguments of commands (`--at`, `track`'s start and end, …) in a log's calendar.
///
/// Accepted forms (keywords in any case):
/// - `now`;
/// - `HH:MM` or `HH:MM:SS` (the hour may have one digit): that wall-clock time today, the log-zone date of now;
/// - a day followed by `HH:MM[:SS]`, or a day alone for its start (midnight, or the first instant after a DST gap
///   that swallowed midnight); a day is `today`, `yesterday`, `tomorrow`, a weekday (`monday` or `mon`: the
///   latest such day, today included, as Timewarrior reads it) or a date `YYYY-MM-DD`;
/// - `<duration> ago` with a duration such as `90s`, `15m`, `2h`, `1h30m`, `3d`, `1d2h` (units d, h, m, s, each
///   at most once, largest first): hours, minutes and seconds are exact elapsed time; days are calendar days
///   in the log's zone, keeping the wall-clock time (`1d ago` at 09:00 is yesterday at 09:00, 23 or 25 hours
///   back across a DST change);
/// - ISO 8601 with `Z` or an offset (`2026-11-29T14:07:09+01:00`): that instant;
/// - ISO 8601 without a zone (`2026-11-29T09:30`, `2026-11-29 09:30`, or a date alone for its midnight): a
///   wall-clock time in the log's zone.
///
/// A wall-clock time that a DST change skipped is refused, naming the gap; one that occurs twice resolves to
/// its first occurrence with a notice. The one exception is a day count (`3d ago`) whose wall-clock time
/// landed in a gap: the person never typed that time, so it moves forward by the gap's length, with a notice.
public enum TimeArgument {
    /// The accepted forms, for usage messages.
    public static let acceptedForms =
        "now; HH:MM[:SS] (today); a day and HH:MM[:SS] (yesterday 23:30, monday 09:00, 2026-11-29 09:30), or a "
        + "day alone for its midnight (a day is today, yesterday, tomorrow, a weekday such as monday or mon — the "
        + "latest, today included — or YYYY-MM-DD); 15m ago, 1h30m ago, 3d ago; 2026-11-29T09:30 (in the log's "
        + "time zone); or an instant with Z or an offset, such as 2026-11-29T14:07+01:00"

    /// Resolves `text` to an instant, relative to `now` and in `calendar`.
    ///
    /// ```swift
    /// let start = try TimeArgument.parse("09:30", now: now, calendar: state.calendar)
    /// ```
    /// - Throws: ``DomainError/Code/invalidTime`` (usage) for text in none of the forms;
    ///   ``DomainError/Code/nonexistentLocalTime`` (refused) for a wall-clock time in a DST gap.
    /// - Parameter day: the date a bare `HH:MM` names (default: the log-zone date of `now`). Editing a record
    ///   from last week passes the record's own date, so `--end 17:30` means 17:30 of that day.
    public static func parse(
        _ text: String, now: Instant, calendar: LogCalendar, day: CivilDate? = nil
    ) throws(DomainError) -> ParsedTime {
        let trimmed = InputLimits.trimmed(text)
        let lower = trimmed.lowercased()
        if lower == "now" { return ParsedTime(now, text: trimmed) }
        if lower.hasSuffix(" ago") {
            return try ago(String(lower.dropLast(4)), text: trimmed, now: now, calendar: calendar)
        }
        let today = calendar.date(of: now)
        let words = lower.split(separator: " ", omittingEmptySubsequences: true).map(String.init)
        if words.count == 1, let date = self.day(words[0], today: today) {
            return ParsedTime(calendar.startOfDay(date), text: trimmed)
        }
        if words.count == 2, let date = self.day(words[0], today: today), let time = clock(words[1]) {
            return try wallClock(LocalDateTime(date: date, millisecondOfDay: time), text: trimmed, calendar: calendar)
        }
        if let time = clock(lower) {
            return try wallClock(
                LocalDateTime(date: day ?? today, millisecondOfDay: time), text: trimmed, calendar: calendar)
        }
        switch ISO8601Timestamp.parse(trimmed) {
        case .instant(let instant): return ParsedTime(instant, text: trimmed)
        case .local(let local): return try wallClock(local, text: trimmed, calendar: calendar)
        case nil: throw invalid(text)
        }
    }

    /// The instant of a read verb's `--at`, refusing a point more than a minute after `now`.
    ///
    /// A read shows the log as it was at a moment: at a future point it would show timers running for hours
    /// that have not passed. Write verbs refuse a future time in the decision; read verbs refuse it here, with
    /// the same tolerance (a point at most ``InputLimits/futureToleranceMilliseconds`` ahead is read as is).
    /// - Throws: ``DomainError/Code/timeInFuture`` (refused).
    public static func pastPoint(
        _ parsed: ParsedTime, option: String, now: Instant, calendar: LogCalendar
    ) throws(DomainError) -> Instant {
        let ahead = parsed.instant.milliseconds(since: now)
        guard ahead > InputLimits.futureToleranceMilliseconds else { return parsed.instant }
        throw DomainError(
            .timeInFuture,
            "\(option) \(parsed.text) (\(MessageFormat.local(parsed.instant, calendar))) is "
                + "\(MessageFormat.duration(ahead)) in the future; it is now \(MessageFormat.local(now, calendar)): "
                + "a read shows the log as it was at a moment that has passed; give an earlier time, or leave out "
                + "\(option) to read it now")
    }

    /// The weekday names, Sunday first (weekday 1), as typed in full or by their first three letters.
    static let weekdayNames = ["sunday", "monday", "tuesday", "wednesday", "thursday", "friday", "saturday"]

    /// The date a day word names: `today`, `yesterday`, `tomorrow`, a weekday (the latest such day, `today`
    /// included) or `YYYY-MM-DD`; nil for anything else.
    static func day(_ word: String, today: CivilDate) -> CivilDate? {
        switch word {
        case "today": return today
        case "yesterday": return today.adding(days: -1)
        case "tomorrow": return today.adding(days: 1)
        default: break
        }
        if let index = weekdayNames.firstIndex(where: { $0 == word || (word.count == 3 && $0.hasPrefix(word)) }) {
            let back = (today.weekday - (index + 1) + 7) % 7
            return today.adding(days: -back)
        }
        guard word.utf8.count == 10, case .local(let local) = ISO8601Timestamp.parse(word), local.millisecondOfDay == 0
        else { return nil }
        return local.date
    }

    static func invalid(_ text: String) -> DomainError {
        DomainError(.invalidTime, "\"\(text)\" is not a time; use \(acceptedForms)")
    }

    /// `H:MM`, `HH:MM` or `HH:MM:SS` as milliseconds since midnight.
    static func clock(_ text: String) -> Int64? {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 2 || parts.count == 3 else { return nil }
        var values: [Int64] = []
        for (index, part) in parts.enumerated() {
            let width = index == 0 ? 1...2 : 2...2
            guard width.contains(part.utf8.count), part.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
                let value = Int64(part)
            else { return nil }
            values.append(value)
        }
        let (hour, minute, second) = (values[0], values[1], values.count == 3 ? values[2] : 0)
        guard hour < 24, minute < 60, second < 60 else { return nil }
        return ((hour * 60 + minute) * 60 + second) * 1000
    }

    /// A wall-clock time the person typed: a gap is refused, an overlap takes the first occurrence.
    static func wallClock(_ local: LocalDateTime, text: String, calendar: LogCalendar) throws(DomainError) -> ParsedTime
    {
        switch calendar.resolve(local) {
        case .unique(let instant):
            return ParsedTime(instant, text: text)
        case .ambiguous(let first, let second):
            return ParsedTime(first, text: text, notice: ambiguity(local, first, second, calendar))
        case .nonexistent(let next):
            let gap = Gap(next, calendar)
            let suggestion = LocalDateTime(
                local.instant(offsetSeconds: gap.offsetBefore), offsetSeconds: gap.offsetAfter)
            throw DomainError(
                .nonexistentLocalTime,
                "\(MessageFormat.local(local)) does not exist in \(calendar.timeZoneIdentifier): clocks jump from "
                    + "\(MessageFormat.clock(gap.from)) to \(MessageFormat.clock(gap.to)); use "
                    + "\(MessageFormat.clock(suggestion)) or an explicit offset")
        }
    }

    static func ambiguity(_ local: LocalDateTime, _ first: Instant, _ second: Instant, _ calendar: LogCalendar)
        -> Notice
    {
        Notice(
            .ambiguousLocalTime,
            "\(MessageFormat.local(local)) is ambiguous in \(calendar.timeZoneIdentifier) (clocks go back and it "
                + "occurs twice); used the first occurrence (\(MessageFormat.withOffset(first, calendar))); for the "
                + "second, write \(MessageFormat.withOffset(second, calendar))")
    }

    /// The wall-clock readings on either side of the transition at `next`.
    struct Gap {
        var offsetBefore: Int
        var offsetAfter: Int
        var from: LocalDateTime
        var to: LocalDateTime

        init(_ next: Instant, _ calendar: LogCalendar) {
            offsetBefore = calendar.offsetSeconds(at: next.adding(milliseconds: -1))
            offsetAfter = calendar.offsetSeconds(at: next)
            from = LocalDateTime(next, offsetSeconds: offsetBefore)
            to = LocalDateTime(next, offsetSeconds: offsetAfter)
        }
    }

    /// `<duration> ago`.
    static func ago(_ duration: String, text: String, now: Instant, calendar: LogCalendar) throws(DomainError)
        -> ParsedTime
    {
        let units: [(Character, Int64)] = [("d", 0), ("h", 3_600_000), ("m", 60_000), ("s", 1000)]
        var days: Int64 = 0
        var elapsed: Int64 = 0
        var digits = ""
        var nextUnit = 0
        var sawComponent = false
        for character in duration {
            if character.isASCII, character.isNumber {
                guard digits.count < 6 else { throw invalid(text) }
                digits.append(character)
                continue
            }
            guard !digits.isEmpty, let index = units[nextUnit...].firstIndex(where: { $0.0 == character }),
                let value = Int64(digits)
            else { throw invalid(text) }
            if index == 0 { days = value } else { elapsed += value * units[index].1 }
            nextUnit = index + 1
            digits = ""
            sawComponent = true
        }
        guard sawComponent, digits.isEmpty else { throw invalid(text) }
        var notice: Notice?
        var instant = now
        if days > 0 {
            guard days <= 36_600 else { throw invalid(text) }
            let wall = calendar.local(now)
            let local = LocalDateTime(date: wall.date.adding(days: -Int(days)), millisecondOfDay: wall.millisecondOfDay)
            switch calendar.resolve(local) {
            case .unique(let resolved):
                instant = resolved
            case .ambiguous(let first, let second):
                instant = first
                notice = ambiguity(local, first, second, calendar)
            case .nonexistent(let next):
                let gap = Gap(next, calendar)
                instant = local.instant(offsetSeconds: gap.offsetBefore)
                notice = Notice(
                    .shiftedOverGap,
                    "\(MessageFormat.local(local)) does not exist in \(calendar.timeZoneIdentifier) (clocks jump from "
                        + "\(MessageFormat.clock(gap.from)) to \(MessageFormat.clock(gap.to))); used "
                        + "\(MessageFormat.withOffset(instant, calendar))")
            }
        }
        return ParsedTime(instant.adding(milliseconds: -elapsed), text: text, notice: notice)
    }
}
