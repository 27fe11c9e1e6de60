/// Formats tracked durations the way the widgets show them.
///
/// Both forms show whole minutes, truncating the seconds, so a display that changes once a minute is
/// exact; negative durations show as zero.
public enum DurationFormatter {
    /// `H:MM`: hours unpadded, minutes two digits — `0:05`, `1:05`, `26:40`.
    public static func hoursMinutes(milliseconds: Int64) -> String {
        let minutes = max(0, milliseconds) / 60_000
        let remainder = minutes % 60
        return "\(minutes / 60):\(remainder < 10 ? "0" : "")\(remainder)"
    }

    /// The compact form of the summary rows: `2h 15m`, `45m`, `3h`, `0m`.
    public static func compact(milliseconds: Int64) -> String {
        let minutes = max(0, milliseconds) / 60_000
        let (hours, remainder) = (minutes / 60, minutes % 60)
        switch (hours, remainder) {
        case (0, _): return "\(remainder)m"
        case (_, 0): return "\(hours)h"
        default: return "\(hours)h \(remainder)m"
        }
    }
}
