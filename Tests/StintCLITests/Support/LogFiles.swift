import Foundation
import Glibc
import TestSupport

/// The files of a log directory, for tests that damage a log and compare it with what a new machine reads.
enum LogFiles {
    /// The files directly in `log` (not `checkpoints/`) that `include` keeps, and their bytes.
    static func files(of log: String, _ include: (String) -> Bool = { _ in true }) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: log)
        where name != "checkpoints" && include(name) {
            files[name] = try Data(contentsOf: URL(fileURLWithPath: log + "/" + name))
        }
        return files
    }

    /// The segment files of `log`, in order.
    static func segmentNames(of log: String) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: log).filter { $0.hasSuffix(".jsonl.zst") }.sorted()
    }

    /// A copy of the log's own files (`format`, the segments) in `directory`, without any cache: what a new
    /// machine reads. Owned by `owner` when given.
    static func segmentsOnlyCopy(of log: String, in directory: TemporaryDirectory, owner: UInt32? = nil) throws
        -> String
    {
        let copy = directory.appending("cold-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(atPath: copy, withIntermediateDirectories: false)
        for name in try FileManager.default.contentsOfDirectory(atPath: log)
        where name == "format" || name.hasSuffix(".jsonl.zst") {
            try FileManager.default.copyItem(atPath: log + "/" + name, toPath: copy + "/" + name)
        }
        if let owner { try chownRecursively(copy, to: owner) }
        return copy
    }

    static func chownRecursively(_ path: String, to user: UInt32) throws {
        guard chown(path, user, user) == 0 else { throw POSIXError(.EPERM) }
        guard let names = FileManager.default.enumerator(atPath: path) else { return }
        for case let name as String in names {
            guard lchown(path + "/" + name, user, user) == 0 else { throw POSIXError(.EPERM) }
        }
    }
}
