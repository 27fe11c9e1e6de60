// Plain file operations of the simulator (its temporary directory and the sync folder views), which it does
// as a file-sync tool would: whole files, prefixes of files, removals.
import Foundation

enum Files {
    static func read(_ path: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path).map { Array($0) }
    }

    /// Writes `bytes` to `path`, creating its directory.
    static func write(_ bytes: [UInt8], to path: String) {
        let directory = (path as NSString).deletingLastPathComponent
        try? FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        _ = FileManager.default.createFile(atPath: path, contents: Data(bytes))
    }

    static func remove(_ path: String) {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// The names in `directory` (none when it does not exist), sorted.
    static func names(in directory: String) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []).sorted()
    }

    static func makeDirectory(_ path: String) {
        try? FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    /// Copies the directory tree at `source` to `target` (which must not exist).
    static func copyTree(_ source: String, to target: String) throws {
        try FileManager.default.copyItem(atPath: source, toPath: target)
    }

    /// A new temporary directory for one seed, on a memory file system when there is one (fsync is free
    /// there, and the simulation is about order, not durability).
    static func temporaryDirectory(seed: UInt64) -> String {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        let path = "\(base)/stint-sim-\(ProcessInfo.processInfo.processIdentifier)-\(seed)"
        remove(path)
        makeDirectory(path)
        return path
    }
}
