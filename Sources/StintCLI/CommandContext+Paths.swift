import StintCore
@_spi(FaultInjection) import StintEngine

/// Where this command's files are: the log and the device id file.
extension CommandContext {
    /// The log path: `--log`, else `STINT_LOG`, else `$XDG_DATA_HOME/stint/log`, else
    /// `$HOME/.local/share/stint/log`.
    var logPath: String {
        get throws(CLIError) {
            if let path = globals.logPath { return path }
            if let path = host.environment["STINT_LOG"], !path.isEmpty { return path }
            if let data = host.environment["XDG_DATA_HOME"].flatMap(LocalPath.init), data.isAbsolute {
                return data.appending("stint/log").string
            }
            if let home = host.environment["HOME"].flatMap(LocalPath.init) {
                return home.appending(".local/share/stint/log").string
            }
            throw CLIError.usage("no log given and HOME is not set; pass --log PATH or set STINT_LOG", verb: nil)
        }
    }

    /// This installation's device id file (docs/sync.md): `$XDG_STATE_HOME/stint/device`, else
    /// `$HOME/.local/state/stint/device`; nil when neither is set (the space verbs then say so).
    var deviceIDFile: String? {
        if let state = host.environment["XDG_STATE_HOME"].flatMap(LocalPath.init), state.isAbsolute {
            return state.appending("stint/device").string
        }
        return host.environment["HOME"].flatMap(LocalPath.init)?.appending(".local/state/stint/device").string
    }
}
