import StintCore
import StintEngine

/// `--as-published`: what the app had published at the point rather than what a publish there would give.
enum AsPublished {
    static let name = "as-published"
    static let spec = OptionSpec.flag(
        name, "Show what the widget had at the point: the app's last write at or before it, not a publish at it.")
}
