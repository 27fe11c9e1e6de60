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
}
