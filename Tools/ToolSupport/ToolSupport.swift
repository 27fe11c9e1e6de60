// What the development executables under Tools/ share: the system clock (they stand where the CLI does,
// above the library, so they may read it), whole-line writes, the error exit, sleeps and elapsed time.
import Glibc
public import StintCore

/// The system clock, to the millisecond.
public func systemNow() -> Instant {
    var time = timespec()
    clock_gettime(CLOCK_REALTIME, &time)
    return Instant(milliseconds: Int64(time.tv_sec) * 1000 + Int64(time.tv_nsec) / 1_000_000)
}

/// Writes a line with one `write` call where the descriptor allows it, so that a kill never leaves half a
/// line and the lines of concurrent processes never mix.
public func emit(_ line: String, to descriptor: Int32) {
    let bytes = Array((line + "\n").utf8)
    var written = 0
    while written < bytes.count {
        let count = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress! + written, $0.count - written) }
        if count <= 0 { return }
        written += count
    }
}

/// Prints `error: message` on standard error and exits 1.
public func fail(_ message: String) -> Never {
    emit("error: \(message)", to: STDERR_FILENO)
    exit(1)
}

/// Sleeps for a number of milliseconds.
public func sleep(milliseconds: Int) {
    var request = timespec(tv_sec: milliseconds / 1000, tv_nsec: (milliseconds % 1000) * 1_000_000)
    var remaining = timespec()
    while nanosleep(&request, &remaining) != 0 && errno == EINTR { request = remaining }
}

/// Seconds on a monotonic clock, for elapsed times.
public func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}
