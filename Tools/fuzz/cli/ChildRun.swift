import Glibc

/// One run of a program with arguments and an environment given as bytes (an argument that is not UTF-8
/// cannot go through `Foundation.Process`), its output in files, and a time limit.
struct ChildRun {
    /// How a run ended.
    enum Ending: Equatable {
        case exited(Int32)
        case signaled(Int32)
        case timedOut
    }

    var ending: Ending
    var stdout: [UInt8]
    var stderr: [UInt8]
    var seconds: Double

    /// Runs `executable` in `directory` with exactly `environment`, standard input read from `input`, and
    /// standard output and error written to files in `scratch`; kills it after `timeout` seconds.
    static func run(
        _ executable: String, _ arguments: [[UInt8]], environment: [[UInt8]], directory: String, input: String,
        scratch: String, timeout: Double
    ) -> ChildRun {
        let outPath = scratch + "/stdout"
        let errPath = scratch + "/stderr"
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, input, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, errPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        let argv = CStrings([Array(executable.utf8)] + arguments)
        let envp = CStrings(environment)
        // posix_spawn has no portable "change directory" action: the harness is single-threaded, so it
        // changes its own and changes back.
        let home = currentDirectory()
        guard chdir(directory) == 0 else { fail("cannot enter \(directory)") }
        var pid: pid_t = 0
        let started = monotonic()
        let result = posix_spawn(&pid, executable, &actions, nil, argv.pointers, envp.pointers)
        _ = chdir(home)
        guard result == 0 else { fail("cannot start \(executable): \(String(cString: strerror(result)))") }
        var status: Int32 = 0
        var ending: Ending?
        while ending == nil {
            let waited = waitpid(pid, &status, WNOHANG)
            if waited == pid {
                ending = (status & 0x7f) == 0 ? .exited((status >> 8) & 0xff) : .signaled(status & 0x7f)
            } else if waited < 0 && errno != EINTR {
                fail("waitpid: \(String(cString: strerror(errno)))")
            } else if monotonic() - started > timeout {
                kill(pid, SIGKILL)
                _ = waitpid(pid, &status, 0)
                ending = .timedOut
            } else {
                usleep(500)
            }
        }
        return ChildRun(
            ending: ending!, stdout: readFile(outPath), stderr: readFile(errPath), seconds: monotonic() - started)
    }
}

/// NUL-terminated copies of byte strings, with the NULL-terminated pointer array `exec` takes.
final class CStrings {
    let pointers: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>
    private let count: Int

    init(_ strings: [[UInt8]]) {
        count = strings.count
        pointers = .allocate(capacity: strings.count + 1)
        for (index, bytes) in strings.enumerated() {
            let copy = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (offset, byte) in bytes.enumerated() { copy[offset] = CChar(bitPattern: byte) }
            copy[bytes.count] = 0
            pointers[index] = copy
        }
        pointers[strings.count] = nil
    }

    deinit {
        for index in 0..<count { pointers[index]?.deallocate() }
        pointers.deallocate()
    }
}

func currentDirectory() -> String {
    var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
    guard getcwd(&buffer, buffer.count) != nil else { fail("getcwd failed") }
    return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
}

func monotonic() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// The bytes of a file (empty when it cannot be read), with plain system calls.
func readFile(_ path: String) -> [UInt8] {
    let descriptor = open(path, O_RDONLY | O_CLOEXEC)
    guard descriptor >= 0 else { return [] }
    defer { close(descriptor) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 1 << 16)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { return bytes }
        bytes += buffer[0..<count]
    }
}

/// Writes `bytes` to a new file at `path`.
func writeFile(_ path: String, _ bytes: [UInt8]) {
    let descriptor = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else { fail("cannot write \(path): \(String(cString: strerror(errno)))") }
    defer { close(descriptor) }
    var offset = 0
    while offset < bytes.count {
        let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
        guard count > 0 else { fail("cannot write \(path)") }
        offset += count
    }
}

/// Prints `error: message` and exits 1: the harness itself cannot go on.
func fail(_ message: String) -> Never {
    let bytes = Array("error: \(message)\n".utf8)
    _ = bytes.withUnsafeBytes { write(2, $0.baseAddress, $0.count) }
    exit(1)
}

/// Writes a line on standard output at once (the output is often a file that is watched while it grows).
func say(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    _ = bytes.withUnsafeBytes { write(1, $0.baseAddress, $0.count) }
}
