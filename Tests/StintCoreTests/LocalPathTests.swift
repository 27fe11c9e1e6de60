import Testing

@testable import StintCore

@Suite struct LocalPathTests {
    @Test(arguments: [
        ("M", "M", false),
        ("é", "é", false),
        ("~", "~", false),
        ("a/", "a", true),
        ("a//b///", "a/b", true),
        (".", ".", false),
        ("./", ".", true),
        ("./a/./b/.", "a/b", false),
        ("..", "..", false),
        ("../", "..", true),
        ("a/../b", "a/../b", false),
        ("/", "/", false),
        ("//", "/", false),
        ("/a/", "/a", true),
        ("/./", "/", false),
        ("~/x", "~/x", false),
        ("a\nb/c", "a\nb/c", false),
    ])
    func isNormalizedWithoutChangingWhatItNames(given: String, normalized: String, endsWithSlash: Bool) throws {
        let path = try #require(LocalPath(given))
        #expect(path.string == normalized)
        #expect(path.endsWithSlash == endsWithSlash)
    }

    @Test(arguments: ["", "a\0b"])
    func emptyAndNULPathsAreNotPaths(given: String) {
        #expect(LocalPath(given) == nil)
    }

    @Test(arguments: [
        ("M", "."),
        ("a/", "."),
        ("é", "."),
        ("~", "."),
        (".", ".."),
        ("./", ".."),
        ("..", "../.."),
        ("../a", ".."),
        ("a/b", "a"),
        ("a/b/", "a"),
        ("/", "/"),
        ("/a", "/"),
        ("/a/b", "/a"),
        ("/..", "/../.."),
    ])
    func parentIsTheDirectoryHoldingThePath(given: String, parent: String) throws {
        #expect(try #require(LocalPath(given)).parent.string == parent)
    }

    @Test(arguments: [
        ("log", "format", "log/format"),
        ("log/", "format", "log/format"),
        (".", "format", "format"),
        ("/", "format", "/format"),
        ("..", "state", "../state"),
        ("data", "stint/log", "data/stint/log"),
        ("data", "/stint//log/", "data/stint/log"),
    ])
    func appendingANameJoinsWithOneSlash(directory: String, name: String, joined: String) throws {
        #expect(try #require(LocalPath(directory)).appending(name).string == joined)
    }

    @Test(arguments: [
        ("a/b", "b" as String?),
        ("b/", "b"),
        ("é", "é"),
        (".", nil),
        ("..", nil),
        ("/", nil),
        ("a/..", nil),
    ])
    func lastComponentIsTheNameOfWhatThePathNames(given: String, name: String?) throws {
        #expect(try #require(LocalPath(given)).lastComponent == name)
    }

    @Test func aSlashFollowedByACombiningMarkStillSeparates() throws {
        // "/\u{338}" is a single Character; the kernel still sees a separator before U+0338.
        let path = try #require(LocalPath("a/\u{338}b"))
        #expect(path.components == ["a", "\u{338}b"])
        #expect(path.parent.string == "a")
    }

    @Test func theParentOfAnyPathHoldsIt() throws {
        var random = SplitMix64(seed: 16)
        let names = ["a", ".", "..", "é", "~", "", "b c"]
        for _ in 0..<500 {
            let count = Int.random(in: 1...5, using: &random)
            var text = (0..<count).map { _ in names.randomElement(using: &random)! }.joined(separator: "/")
            if Bool.random(using: &random) { text = "/" + text }
            guard let path = LocalPath(text) else { continue }
            let parent = path.parent
            if let name = path.lastComponent {
                #expect(parent.appending(name) == LocalPath(path.string), "\(text)")
            } else {
                #expect(parent.string.count >= path.string.count || path.string == "/", "\(text)")
            }
        }
    }
}
