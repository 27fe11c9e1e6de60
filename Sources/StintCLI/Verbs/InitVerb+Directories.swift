import Foundation
import StintCore

extension InitVerb {
    /// Creates the directories of `path` that are missing, outermost first, and returns them; when one
    /// cannot be created, removes those it created and throws, so a refused `init` leaves nothing behind.
    static func makeDirectories(_ path: LocalPath) throws(CLIError) -> [String] {
        var created: [String] = []
        var prefix = path.isAbsolute ? LocalPath("/")! : LocalPath(".")!
        for component in path.components {
            prefix = prefix.appending(component)
            if FileManager.default.fileExists(atPath: prefix.string) { continue }
            // Readable by its owner only, as the log inside it is (docs/log-format.md §1).
            guard mkdir(prefix.string, 0o700) == 0 || errno == EEXIST else {
                let reason = String(cString: strerror(errno))
                removeDirectories(created)
                throw CLIError.refused("cannot create the directory \(prefix.string): \(reason)")
            }
            created.append(prefix.string)
        }
        return created
    }

    /// Removes directories `makeDirectories` created, innermost first (only while they are empty).
    static func removeDirectories(_ directories: [String]) {
        for directory in directories.reversed() { rmdir(directory) }
    }
}
