import Glibc

/// Why ``LogFileSystem/placeDurably(_:at:as:in:)`` failed: the system call's error, and whether the file had
/// already been renamed into place (so that the caller undoes the right file).
struct PlacementFailure: Error {
    var error: SystemCallError
    var renamed: Bool
}

extension LogFileSystem {
    /// Writes `bytes` to `temporaryPath` (with `mode`, when given), syncs it, renames it to `target` and syncs `directory`: a reader
    /// sees the old `target` or the new one whole, never a part. Returns the descriptor of the file now at
    /// `target`, open for the caller to keep or close. On failure the descriptor is closed; the temporary
    /// file, or the renamed one, is left for the caller to remove (``PlacementFailure/renamed`` tells which).
    func placeDurably(
        _ bytes: [UInt8], at temporaryPath: String, as target: String, in directory: String, mode: UInt32? = nil
    ) throws(PlacementFailure) -> Int32 {
        var descriptor: Int32?
        var renamed = false
        do throws(SystemCallError) {
            let opened = try openFile(temporaryPath, .createTruncated)
            descriptor = opened
            if let mode, fchmod(opened, mode_t(mode)) != 0 {
                throw SystemCallError(operation: "fchmod", errno: errno)
            }
            try bytes.withBytes { (all) throws(SystemCallError) in try write(opened, all, at: 0) }
            try synchronize(opened, dataOnly: false)
            try rename(temporaryPath, to: target)
            renamed = true
            try synchronizeDirectory(directory)
            return opened
        } catch {
            if let descriptor { close(descriptor) }
            throw PlacementFailure(error: error, renamed: renamed)
        }
    }
}
