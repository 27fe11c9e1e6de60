import StintCore
import StintEngine

/// A failure the CLI reports on standard error, with the exit status it maps to.
struct CLIError: CategorizedError {
    /// The category every module shares (usage: exit 64, refused: 1, damaged: 65), so an engine or domain
    /// error converts without a mapping.
    typealias Code = ErrorCategory

    var code: Code
    var message: String
    /// The verb whose help to point at for usage errors; nil for the tool's own help.
    var verb: String?
    /// Lines printed after the message (candidates, running timers).
    var details: [String] = []

    static func usage(_ message: String, verb: String?) -> CLIError {
        CLIError(code: .usage, message: message, verb: verb)
    }

    static func refused(_ message: String, details: [String] = []) -> CLIError {
        CLIError(code: .refused, message: message, verb: nil, details: details)
    }

    static func damaged(_ message: String) -> CLIError {
        CLIError(code: .damaged, message: message, verb: nil)
    }

    var category: ErrorCategory { code }

    var exitStatus: Int32 {
        switch code {
        case .usage: return ExitStatus.usage
        case .refused: return ExitStatus.failure
        case .damaged: return ExitStatus.damaged
        }
    }
}

/// The documented exit statuses.
enum ExitStatus {
    static let ok: Int32 = 0
    static let failure: Int32 = 1
    static let usage: Int32 = 64
    static let damaged: Int32 = 65
}

extension CLIError {
    /// The CLI form of any module's error: the same category, message and details, as the engine reports it
    /// (``StintError/init(_:)-(any Error)``); a CLI error the engine carried through (a command builder's)
    /// comes back as it was thrown, its verb included.
    init(_ error: some CategorizedError) {
        let engine = StintError(error as any Error)
        if let thrown = engine.cause as? CLIError {
            self = thrown
        } else {
            self.init(code: engine.category, message: engine.message, verb: nil, details: engine.details)
        }
    }
}
