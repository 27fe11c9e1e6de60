extension LogFileSystem {
    /// The bytes of the file at `path`, read whole; nil when it cannot be opened or read, or changes size while
    /// it is read.
    @_spi(FaultInjection)
    public func contentsOfFile(_ path: String) -> [UInt8]? {
        guard let descriptor = try? openFile(path, .readOnly) else { return nil }
        defer { close(descriptor) }
        guard let size = try? size(of: descriptor),
            let bytes = try? ByteSource.file(descriptor: descriptor, fileSystem: self).readFully(
                count: Int(size), at: 0), bytes.count == Int(size)
        else { return nil }
        return bytes
    }
}
