// libFuzzer target: StintCLI.run on arbitrary argument lists (the input split at NUL bytes), on a fresh copy
// of a small log for every input, in a scratch directory. Built and run by Tools/fuzz/run.sh.
//
// Arguments that could reach outside the scratch directory (holding `/`, or naming another log with
// `--log`) are dropped from the input: the fuzzer runs as whoever starts it and must not create files
// elsewhere. Every run must end with one of the documented exit statuses (0, 1, 64, 65), and a failing
// one must print an `error: …` line.
import Foundation
import StintCLI
import StintCore

import struct StintCLI.Host

final class Scratch: @unchecked Sendable {
    let root = "/dev/shm/stint-fuzz-cli-\(getpid())"
    var template: String { root + "/template" }
    var work: String { root + "/cwd/log" }
    var files: [(String, [UInt8])] = []
    /// Ids count up from here; every input starts again after the template's.
    var counter: UInt64 = 0
    var templateIDs: UInt64 = 0

    func nextID() -> EntityID {
        counter += 1
        return EntityID(high: 0x0000_0000_0000_4000, low: 0x8000_0000_0000_0000 | counter)
    }

    init() {
        try? FileManager.default.removeItem(atPath: root)
        try! FileManager.default.createDirectory(atPath: root + "/cwd", withIntermediateDirectories: true)
        guard FileManager.default.changeCurrentDirectoryPath(root + "/cwd") else { abort() }
        for line in [
            "init --tz Europe/Berlin", "start writing --comment draft", "track 09:00 10:00 reading", "stop",
            "start errands",
            "tag add projects", "undo",
        ] {
            var setup = host(log: template)
            let errors = CapturedOutput()
            setup.standardError = errors
            let status = StintCLI.run(arguments: line.split(separator: " ").map(String.init), host: setup)
            if status != 0 {
                fputs("could not make the template log: \(line): \(errors.text)\n", stderr)
                abort()
            }
        }
        templateIDs = counter
        for name in try! FileManager.default.contentsOfDirectory(atPath: template) where name != "checkpoints" {
            files.append((name, Scratch.read(template + "/" + name)))
        }
    }

    func host(log: String) -> Host {
        Host(
            environment: [
                "STINT_LOG": log, "STINT_NOW": "2026-11-29T13:00:00Z", "STINT_LOCK_TIMEOUT": "0",
            ], clock: { Instant(milliseconds: 1_795_957_629_123) }, newID: { [self] in nextID() },
            standardOutput: CapturedOutput(), standardError: CapturedOutput())
    }

    /// Puts the template's files back in the work log.
    func reset() {
        counter = templateIDs
        try? FileManager.default.removeItem(atPath: work)
        try! FileManager.default.createDirectory(atPath: work, withIntermediateDirectories: false)
        for (name, bytes) in files { Scratch.write(bytes, to: work + "/" + name) }
    }

    /// A file's bytes, read with plain system calls (Foundation's `Data` reports leaks under LeakSanitizer).
    static func read(_ path: String) -> [UInt8] {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return [] }
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let count = buffer.withUnsafeMutableBytes { Glibc.read(descriptor, $0.baseAddress, $0.count) }
            if count <= 0 { return bytes }
            bytes += buffer[0..<count]
        }
    }

    static func write(_ bytes: [UInt8], to path: String) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        guard descriptor >= 0 else { abort() }
        defer { close(descriptor) }
        _ = bytes.withUnsafeBytes { Glibc.write(descriptor, $0.baseAddress, $0.count) }
    }
}

let scratch = Scratch()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzCommandLine(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    let arguments = bytes.split(separator: 0, omittingEmptySubsequences: false).prefix(16).map {
        String(decoding: $0, as: UTF8.self)
    }
    if arguments.contains(where: { $0.contains("/") || $0.hasPrefix("--l") || $0.hasPrefix("-l") }) { return -1 }
    scratch.reset()
    let errors = CapturedOutput()
    var host = scratch.host(log: scratch.work)
    host.standardError = errors
    let status = StintCLI.run(arguments: arguments, host: host)
    precondition([0, 1, 64, 65].contains(status), "undocumented exit status \(status)")
    if status != 0 {
        precondition(
            errors.text.split(separator: "\n").contains { $0.hasPrefix("error: ") },
            "a failure without `error:`: \(errors.text)")
    }
    return 0
}
