/// The version `stint --version` prints, with the commit the binary was built from when the build knew it.
///
/// The commit comes from `StintVersion+Commit.swift`, which `make` writes (`Tools/write-build-commit.sh`)
/// and git ignores: it declares `StintVersion.buildCommit`, which takes precedence over the fallback of
/// ``BuildCommitFallback`` (nil) that a build without it (plain `swift build`, a source tarball) uses.
enum StintVersion: BuildCommitFallback {
    static let version = "0.2.0"

    /// `stint --version`'s line.
    static var line: String { line(commit: buildCommit) }

    /// `stint 0.2.0 (commit 1a2b3c4d5e6f)`, or `stint 0.2.0` without a commit.
    static func line(commit: String?) -> String {
        guard let commit, !commit.isEmpty else { return "stint \(version)\n" }
        return "stint \(version) (commit \(commit))\n"
    }
}

/// The commit of a build that was not given one: none.
protocol BuildCommitFallback {}

extension BuildCommitFallback {
    /// The short hash of the commit the binary was built from (`-dirty` when the tree had changes); nil
    /// when the build did not record it.
    static var buildCommit: String? { nil }
}
