import Foundation

/// A fresh directory for one test's logs, removed at deinit; on a memory-backed file system when the
/// machine has one (`/dev/shm`), so that the thousands of syncs of the recovery tests cost nothing.
///
/// Durability itself is not what these tests observe: crashes and failed syncs are simulated through
/// `FaultInjectingFileSystem`.
final class ScratchDirectory: @unchecked Sendable {
    let path: String

    init(prefix: String) {
        var isDirectory: ObjCBool = false
        let base =
            FileManager.default.fileExists(atPath: "/dev/shm", isDirectory: &isDirectory) && isDirectory.boolValue
            ? "/dev/shm" : FileManager.default.temporaryDirectory.path
        path = "\(base)/\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `path/component`.
    func appending(_ component: String) -> String {
        path + "/" + component
    }
}
