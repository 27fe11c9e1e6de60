import Foundation
import StintCore
import StintEngine

/// A file being imported.
struct ImportInput {
    /// The path as given, or `standard input`.
    var name: String
    var bytes: [UInt8]

    /// Reads `path`, or standard input for `-`.
    static func read(_ path: String, context: CommandContext, allowStandardInput: Bool = true) throws(CLIError)
        -> ImportInput
    {
        if path == "-" && allowStandardInput {
            return ImportInput(name: "standard input", bytes: context.host.readStandardInput())
        }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CLIError.refused("there is no file \(path); give the path of the file to import")
        }
        guard !isDirectory.boolValue, let data = FileManager.default.contents(atPath: path) else {
            throw CLIError.refused(
                "\(path) cannot be read\(isDirectory.boolValue ? " (it is a directory)" : ""); give a readable file")
        }
        return ImportInput(name: path, bytes: Array(data))
    }

    /// A malformed file: exit 65 (the input's data is not what the tool writes), with the position.
    static func failure(_ error: ImportError, name: String) -> CLIError {
        CLIError.damaged("cannot import \(name): \(error.message) Nothing was imported.")
    }

    /// Watson's frames file: `$WATSON_DIR/frames`, else `$XDG_CONFIG_HOME/watson/frames`, else
    /// `~/.config/watson/frames`, else (macOS) `~/Library/Application Support/watson/frames`.
    static func watsonFrames(_ environment: [String: String]) throws(CLIError) -> String {
        if let directory = environment["WATSON_DIR"].flatMap(LocalPath.init) {
            return directory.appending("frames").string
        }
        var candidates: [String] = []
        if let config = environment["XDG_CONFIG_HOME"].flatMap(LocalPath.init), config.isAbsolute {
            candidates.append(config.appending("watson/frames").string)
        }
        if let home = environment["HOME"].flatMap(LocalPath.init) {
            candidates.append(home.appending(".config/watson/frames").string)
            candidates.append(home.appending("Library/Application Support/watson/frames").string)
        }
        guard let first = candidates.first else {
            throw CLIError.usage("HOME is not set: give the path of Watson's frames file", verb: "import watson")
        }
        return candidates.first { FileManager.default.fileExists(atPath: $0) } ?? first
    }

    /// The file `name` in the directory of `path`.
    static func sibling(_ path: String, _ name: String) -> String {
        LocalPath(path)?.parent.appending(name).string ?? name
    }
}
