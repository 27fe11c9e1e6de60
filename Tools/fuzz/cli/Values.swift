/// The values the generator draws from: valid ones, edge cases and garbage, by what an argument stands for.
enum Values {
    static func bytes(_ text: String) -> [UInt8] { Array(text.utf8) }

    /// Paths, relative to the working directory unless absolute. The working directory holds `log` (the
    /// seeded log, in most runs), `file.txt`, `dir/` (empty), `full/` (one file), `link` (to `log`), and the
    /// importable `timew.json` and `frames`, and `snapshot.json`; it is two levels below the sandbox, so
    /// `..` and `../..` stay inside it. The only absolute paths outside the sandbox are `/` and the
    /// harmless system files the issue names.
    static let paths: [[UInt8]] = pathTexts.map(bytes) + pathBytes

    private static let pathTexts: [String] = [
        "M", "é", "~", "~/x", ".", "./", "..", "../", "../..", "./.", ".//", "a/", "a//", "new", "new/",
        "new/deeper/", "new/../new2", "log", "log/", "log//", "./log", "log/.", "link", "link/", "file.txt",
        "file.txt/", "file.txt/x", "dir", "dir/", "dir/x", "full", "full/", "log/format", "log/lock",
        "log/00000000000000000001.jsonl.zst", "log/checkpoints", "-", "", " ", "\n", "a\nb", "name with space",
        "timew.json", "frames", "snapshot.json", "out.json", "dir/out.json", "missing/out.json", "/", "/dev/null",
        "/dev/full", "/proc/self", "/proc/self/", "/dev/null/x", "@BOX@/w/cwd/log", "@BOX@/w/cwd/new",
        "@BOX@/w/cwd/", "@BOX@/home", "-log", "--log", "*", "?", "'", "\"", "\\", "\t", "case", "case/",
    ]

    private static let pathBytes: [[UInt8]] = [
        Array(repeating: UInt8(ascii: "n"), count: 255), Array(repeating: UInt8(ascii: "n"), count: 256),
        Array(repeating: Array("a/".utf8), count: 2100).flatMap { $0 },
        Array(repeating: Array("x".utf8), count: 5000).flatMap { $0 }, [0xFF, 0xFE], [0x6C, 0x6F, 0x67, 0xFF],
        [0xC3], [0xED, 0xA0, 0x80], [0xC0, 0xAF],
    ]

    /// Time arguments: clock times, dates, relative forms, the ends of the calendar, DST gaps and folds in
    /// Berlin, New York and Lord Howe (a 30-minute shift), offsets, and garbage.
    static let times: [[UInt8]] = [
        "09:00", "9", "9:5", "23:59", "00:00", "24:00", "25:00", "12:60", "now", "today", "yesterday",
        "yesterday 23:30", "today 08:00", "tomorrow", "monday", "sunday 10:00", "-5m", "+1h", "1h ago", "30m",
        "2026-11-29", "2026-11-29T09:00", "2026-11-29 09:00", "2026-11-29T09:00:00Z", "2026-11-29T09:00+14:00",
        "2026-11-29T09:00-12:00", "2026-11-29T09:00:00.123456789Z", "0001-01-01T00:00", "0001-01-01",
        "0001-01-01T00:00:00Z", "9999-12-31T23:59", "9999-12-31", "9999-12-31T23:59:59.999Z", "10000-01-01",
        "0000-01-01", "-0001-01-01", "1969-12-31T23:59:59.999Z", "1970-01-01T00:00Z", "2026-03-29T02:30",
        "2026-03-29T02:00", "2026-10-25T02:30", "2026-10-25T02:59", "2026-03-08T02:30", "2026-11-01T01:30",
        "2026-10-04T02:15", "2026-04-05T01:45", "2026-03-29 02:30", "2024-02-29", "2026-02-29", "2026-13-01",
        "2026-11-31", "2026-11-29T09", "T09:00", "1e9", "1795957629", "@1795957629", "9223372036854775807",
        "-9223372036854775808", "", " ", "09:00 ", " 09:00", "09:00\n", "٠٩:٠٠", "09∶00",
    ].map(bytes)

    /// Whole numbers and things that look like them.
    static let numbers: [[UInt8]] = [
        "0", "1", "2", "3", "7", "8", "10", "40", "-1", "-0", "+1", "01", "1.5", "1e3", "0x10", "9223372036854775807",
        "9223372036854775808", "-9223372036854775808", "99999999999999999999999", "٣", " 1", "1 ", "", "NaN", "inf",
    ].map(bytes)

    /// Free text: names, comments.
    static let texts: [[UInt8]] = textTexts.map(bytes) + textBytes

    private static let textTexts: [String] = [
        "", " ", "x", "a b", "é", "日本語", "💣", "\n", "a\nb", "\r\n", "\t", "\u{202E}rtl", "\u{FEFF}bom", "-",
        "--", "-h", "--help", "%s%n%x", "$(touch pwned)", "'\"", "\\", "null", "true", "{}", "[]",
        "writing", "Writing", "WRITING", " writing", "e\u{301}", "\u{1F3F3}\u{FE0F}\u{200D}\u{1F308}",
    ]

    private static let textBytes: [[UInt8]] = [
        Array(repeating: UInt8(ascii: "x"), count: 10_000), Array(repeating: UInt8(ascii: "y"), count: 100_000),
        [0xFF], [0xC3], [0xED, 0xA0, 0x80], [0x61, 0x80, 0x62],
    ]

    /// IANA zones (with several DST rules), and names that are not zones.
    static let zones: [[UInt8]] = [
        "UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Kiritimati", "Pacific/Chatham",
        "Asia/Kathmandu", "America/St_Johns", "Etc/GMT+12", "Etc/GMT-14", "Antarctica/Troll", "Africa/Casablanca",
        "GMT", "EST5EDT", "CET", "utc", "europe/berlin", "Mars/Base", "", " ", "/etc/localtime", "../../etc/passwd",
        ":Europe/Berlin", "+01:00", "Z", "Europe/Berlin ",
    ].map(bytes)

    /// Values of `STINT_NOW`: ordinary instants, DST gaps and folds, the ends of the calendar, garbage.
    static let nows: [[UInt8]] = [
        "2026-11-29T13:00:00Z", "2026-11-29T13:00:00.000Z", "2026-03-29T01:30:00Z", "2026-10-25T00:30:00Z",
        "2026-10-25T01:30:00Z", "2026-03-08T07:30:00Z", "2026-11-01T05:30:00Z", "2026-11-01T06:30:00Z",
        "0001-01-01T00:00:00Z", "9999-12-31T23:59:59Z", "1970-01-01T00:00:00Z", "2026-11-29", "09:00", "now",
        "yesterday", "", "garbage", "2026-11-29T13:00:00+14:00", "-1", "99999999999999",
    ].map(bytes)

    /// Values for any variable, and for placeholders the generator has no list for.
    static var anything: [[UInt8]] { paths + times + numbers + texts + zones }

    /// Colors.
    static let colors: [[UInt8]] = [
        "#3A7BD5", "#3a7bd5", "#FFF", "#000000", "red", "", "#GGGGGG", "3A7BD5", "#3A7BD5FF",
    ]
    .map(bytes)

    /// Event types (`history --type`).
    static let eventTypes: [[UInt8]] = [
        "timer.started", "timer.stopped", "record.tracked", "tag.created", "log.created", "record", "timer.*", "",
    ].map(bytes)

    /// `verify --expect-head` values.
    static let heads: [[UInt8]] = [
        "1:00", "0:", "-1:ab", "7:", "9223372036854775807:ff", ":", "x", "",
        "1:0000000000000000000000000000000000000000000000000000000000000000",
    ].map(bytes)
}
