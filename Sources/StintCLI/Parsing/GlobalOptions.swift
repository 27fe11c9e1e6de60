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

    static let specs: [OptionSpec] = [
        .value("log", "PATH", "The log to use (default $STINT_LOG, else $XDG_DATA_HOME/stint/log)."),
        .flag("json", "Print JSON instead of text."),
        .flag("quiet", "Print no confirmations, notices or progress (errors and warnings still show).", short: "q"),
        OptionSpec.value("color", "WHEN", "Color human output: auto (a terminal without NO_COLOR), always, never.")
            .choices(["auto", "always", "never"]),
        .flag("help", "Show help for the verb.", short: "h"),
    ]
}
