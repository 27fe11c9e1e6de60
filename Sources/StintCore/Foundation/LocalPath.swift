/// A path Stint was given — the log directory, a file to import, an output — with the few lexical
/// operations Stint needs: its parent directory, a name appended, its last component.
///
/// The text is normalized once: repeated slashes become one, `.` components go, and a trailing slash goes
/// (``endsWithSlash`` remembers it, since `out/` names a directory and `out` may not). Nothing here touches
/// the file system, so `..` is kept as written (resolving it lexically is wrong across symbolic links),
/// and `~` is an ordinary name: the shell expands it, Stint does not (`stint --log '~' init` creates a
/// directory named `~`, as `mkdir '~'` does).
///
/// ```swift
/// LocalPath("a//b/")?.string   // "a/b"
/// LocalPath(".")?.parent.string // ".."
/// ```
public struct LocalPath: Hashable, Sendable, CustomStringConvertible {
    /// The normalized path: `/`, `.`, or components joined by single slashes, with no trailing slash.
    public let string: String
    /// Whether the path as given ended with a slash (other than the root itself).
    public let endsWithSlash: Bool

    /// The path `text` names; nil when it is empty or holds a NUL byte (no system call accepts either).
    public init?(_ text: String) {
        guard !text.isEmpty, !text.utf8.contains(0) else { return nil }
        let absolute = text.utf8.first == LocalPath.slash
        let parts = LocalPath.split(text).filter { $0 != "." }
        string = LocalPath.join(parts, absolute: absolute)
        endsWithSlash = text.utf8.last == LocalPath.slash && string != "/"
    }

    private init(normalized: String) {
        string = normalized
        endsWithSlash = false
    }

    public var description: String { string }

    /// Whether the path starts at the root.
    public var isAbsolute: Bool { string.utf8.first == LocalPath.slash }

    /// The names between the slashes, `..` included; empty for `/` and `.`.
    public var components: [String] { LocalPath.split(string).filter { $0 != "." } }

    /// The last name of the path: `b` of `a/b`; nil for `/`, `.` and a path ending in `..`, which name a
    /// directory only through others.
    public var lastComponent: String? {
        guard let last = components.last, last != ".." else { return nil }
        return last
    }

    /// The directory that holds this path: `a` for `a/b`, `.` for `b`, `..` for `.`, `../..` for `..`, and
    /// `/` for `/` and `/a`.
    public var parent: LocalPath {
        var parts = components
        if parts.isEmpty, isAbsolute { return self }
        if parts.isEmpty || parts.last == ".." {
            parts.append("..")
        } else {
            parts.removeLast()
        }
        return LocalPath(normalized: LocalPath.join(parts, absolute: isAbsolute))
    }

    /// The path of `name` inside this directory (`name` may hold slashes; an absolute `name` is still
    /// taken as relative to this directory).
    public func appending(_ name: String) -> LocalPath {
        let parts = components + LocalPath.split(name).filter { $0 != "." }
        return LocalPath(normalized: LocalPath.join(parts, absolute: isAbsolute))
    }

    private static let slash = UInt8(ascii: "/")

    /// The non-empty names between slashes, split on the byte `/` (never on a `Character`: a slash followed
    /// by a combining mark is one `Character`, but still a separator to the kernel).
    private static func split(_ text: String) -> [String] {
        text.utf8.split(separator: slash).map { String(decoding: $0, as: UTF8.self) }
    }

    private static func join(_ parts: [String], absolute: Bool) -> String {
        if parts.isEmpty { return absolute ? "/" : "." }
        return (absolute ? "/" : "") + parts.joined(separator: "/")
    }
}
