import StintCore

/// The accepted forms of time arguments, for help texts.
enum TimeHelp {
    static let text = """
        Times, the same for every verb, in the log's time zone unless they carry a zone: now; HH:MM or
        HH:MM:SS (today); a day and a time (yesterday 23:30, monday 09:00, fri 17:30, 2026-11-29 09:30),
        or a day alone for its midnight (2026-11-29, yesterday, monday); a day is today, yesterday,
        tomorrow, a weekday (its name or first three letters: the latest such day, today included) or
        YYYY-MM-DD; 15m ago, 2h ago, 1h30m ago, 90s ago, 3d ago (days are calendar days: 23 or 25 hours
        across a DST change); ISO 8601 (2026-11-29T09:30, or with Z or an offset: 2026-11-29T10:30+01:00).
        """
}
