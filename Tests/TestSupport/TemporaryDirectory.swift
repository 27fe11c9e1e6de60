import Foundation

/// A fresh directory under the system's temporary directory, removed when the value is deinitialized.
public final class TemporaryDirectory: @unchecked Sendable {
    /// The absolute path of the directory.
    public let path: String

    public init(prefix: String = "stint-test") {
        let base = FileManager.default.temporaryDirectory.path
        let name = "\(prefix)-\(UUID().uuidString.prefix(8).lowercased())"
        path = (base as NSString).appendingPathComponent(name)
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }

    /// `path/component`.
    public func appending(_ component: String) -> String {
        (path as NSString).appendingPathComponent(component)
    }
}
