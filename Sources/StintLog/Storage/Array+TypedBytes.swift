import Glibc

extension Array where Element == UInt8 {
    /// `withUnsafeBytes` for closures with a typed `throws`, which the standard library's version (declared
    /// `rethrows`) would widen to `any Error`.
    func withBytes<Result, Failure: Error>(
        _ body: (UnsafeRawBufferPointer) throws(Failure) -> Result
    ) throws(Failure) -> Result {
        let outcome = withUnsafeBytes { buffer in
            Swift.Result { () throws(Failure) -> Result in try body(buffer) }
        }
        return try outcome.get()
    }

    /// Whether `part` is these bytes from `offset` on (compared with `memcmp`: a segment is about 1 MiB).
    func holds(_ part: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, offset + part.count <= count else { return false }
        guard !part.isEmpty else { return true }
        return part.withUnsafeBytes { part in
            withUnsafeBytes { whole in memcmp(part.baseAddress!, whole.baseAddress! + offset, part.count) == 0 }
        }
    }
}
