/// Formats a running timer's elapsed time the way the Live Activity's ticking timer text shows it.
///
/// The reference's activity uses SwiftUI's `Text(timerInterval:)`, which shows `M:SS` under an hour and
/// `H:MM:SS` from an hour on (`0:07`, `5:12`, `1:05:12`); a rendering is that text frozen at the moment
/// rendered. Seconds are truncated, negative durations show as `0:00`.
enum LiveActivityClock {
    /// `M:SS` under an hour, `H:MM:SS` from an hour on.
    static func text(milliseconds: Int64) -> String {
        let seconds = max(0, milliseconds) / 1000
        let (hours, minutes, remainder) = (seconds / 3600, seconds / 60 % 60, seconds % 60)
        let secondsText = (remainder < 10 ? "0" : "") + "\(remainder)"
        guard hours > 0 else { return "\(minutes):\(secondsText)" }
        return "\(hours):\(minutes < 10 ? "0" : "")\(minutes):\(secondsText)"
    }
}
