import Foundation
import StintCore

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

extension Host {
    /// The real process: its environment, the system clock, random ids, stdout/stderr and the system zone.
    public static var live: Host {
        var host = Host(
            environment: ProcessInfo.processInfo.environment,
            clock: {
                var spec = timespec()
                clock_gettime(CLOCK_REALTIME, &spec)
                return Instant(milliseconds: Int64(spec.tv_sec) * 1000 + Int64(spec.tv_nsec) / 1_000_000)
            },
            newID: {
                var generator = SystemRandomNumberGenerator()
                return EntityID(randomBits: generator.next(), generator.next())
            },
            standardOutput: FileStream(fileDescriptor: 1),
            standardError: FileStream(fileDescriptor: 2),
            readStandardInput: { Array(FileHandle.standardInput.readDataToEndOfFile()) },
            standardOutputIsTerminal: isatty(1) == 1,
            standardErrorIsTerminal: isatty(2) == 1
        )
        host.readSystemTimeZone = { TimeZone.current.identifier }
        host.readLocaleFirstWeekday = { Calendar.current.firstWeekday }
        host.workingDirectory = FileManager.default.currentDirectoryPath
        host.hostName = machineName()
        return host
    }
}

/// The kernel's host name (gethostname: no name service lookup, which a static executable should not need);
/// nil when it is empty or cannot be read.
private func machineName() -> String? {
    var buffer = [CChar](repeating: 0, count: 256)
    guard gethostname(&buffer, buffer.count - 1) == 0 else { return nil }
    let name = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    return name.isEmpty ? nil : name
}

/// A buffered writer to a file descriptor; flushed when the buffer fills and when the CLI ends.
final class FileStream: TextOutput, @unchecked Sendable {
    private let fileDescriptor: Int32
    private var buffer: [UInt8] = []
    private let lock = NSLockLike()

    init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        buffer.reserveCapacity(1 << 16)
    }

    func write(_ text: String) { write(bytes: Array(text.utf8)) }

    func write(bytes: [UInt8]) {
        lock.withLock {
            buffer.append(contentsOf: bytes)
            if buffer.count >= 1 << 16 || fileDescriptor == 2 { drain() }
        }
    }

    func flush() { lock.withLock { drain() } }

    private func drain() {
        var offset = 0
        while offset < buffer.count {
            let written = buffer.withUnsafeBytes { raw in
                #if canImport(Glibc)
                    Glibc.write(fileDescriptor, raw.baseAddress! + offset, raw.count - offset)
                #else
                    Darwin.write(fileDescriptor, raw.baseAddress! + offset, raw.count - offset)
                #endif
            }
            if written < 0 {
                if errno == EINTR { continue }
                break
            }
            offset += written
        }
        buffer.removeAll(keepingCapacity: true)
    }
}
