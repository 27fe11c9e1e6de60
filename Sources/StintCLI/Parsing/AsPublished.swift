import StintCore
import StintEngine

/// `--as-published`: what the app had published at the point rather than what a publish there would give.
enum AsPublished {
    static let flag = Flag(
        "as-published",
        "Show what the widget had at the point: the app's last write at or before it, not a publish at it.")
}
