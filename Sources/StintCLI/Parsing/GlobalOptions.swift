/// Options every verb accepts, before or after the verb.
struct GlobalOptions: Sendable {
    enum ColorChoice: String, Sendable {
        case auto, always, never
    }

    var logPath: String?
    var json = false
    var quiet = false
    var color: ColorChoice = .auto
    var help = false

    static let log = Option("log", "PATH", "The log to use (default $STINT_LOG, else $XDG_DATA_HOME/stint/log).")
    static let json = Flag("json", "Print JSON instead of text.")
    static let quiet = Flag(
        "quiet", "Print no confirmations, notices or progress (errors and warnings still show).", short: "q")
    static let color = Option("color", "WHEN", "Color human output: auto (a terminal without NO_COLOR), always, never.")
        .choices(["auto", "always", "never"])
    static let help = Flag("help", "Show help for the verb.", short: "h")

    /// The global options, in the order the help lists them.
    static let specs: [OptionSpec] = [log.spec, json.spec, quiet.spec, color.spec, help.spec]
}
