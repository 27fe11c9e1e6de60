extension LogFileSystem {
    /// The bytes of the file at `path`, read whole; nil when it cannot be opened or read, holds more than
    /// `limit` bytes, or ends before the size it had when it was opened.
    @_spi(FaultInjection)
    public func contentsOfFile(_ path: String, atMost limit: Int64 = .max) -> [UInt8]? {
        guard let descriptor = try? openFile(path, .readOnly) else { return nil }
        defer { close(descriptor) }
        guard let size = try? size(of: descriptor), size >= 0, size <= min(limit, Int64(Int.max)) else { return nil }
        let count = Int(size)
        var complete = true
        // Read straight into the array's storage: a segment is about 1 MiB.
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            let storage = UnsafeMutableRawBufferPointer(buffer)
            var done = 0
            while done < count {
                guard
                    let read = try? self.read(
                        descriptor, into: UnsafeMutableRawBufferPointer(rebasing: storage[done...]), at: Int64(done)),
                    read > 0
                else {
                    complete = false
                    break
                }
                done += read
            }
            initialized = done
        }
        return complete ? bytes : nil
    }
}
