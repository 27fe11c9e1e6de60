import Foundation
import Testing

/// Compares rendered widgets with golden files under `__Snapshots__/Widgets/` beside this file.
///
/// With `STINT_RECORD_GOLDEN=1` in the environment the files are (re)written instead, and the test fails
/// so that a re-record never passes unnoticed: run once to record, inspect the diff, run again to pass.
enum WidgetGolden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("__Snapshots__").appendingPathComponent("Widgets")

    static var isRecording: Bool {
        ProcessInfo.processInfo.environment["STINT_RECORD_GOLDEN"] == "1"
    }

    /// Checks that `actual` equals the golden file `name` in `directory` (the widget goldens' by default), or
    /// records it.
    static func check(
        _ actual: String, against name: String, in directory: URL = directory,
        sourceLocation: SourceLocation = #_sourceLocation
    ) {
        let url = directory.appendingPathComponent(name)
        if isRecording {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try Data(actual.utf8).write(to: url)
            } catch {
                Issue.record("could not write \(url.path): \(error)", sourceLocation: sourceLocation)
                return
            }
            Issue.record(
                "recorded \(name); unset STINT_RECORD_GOLDEN and run again", sourceLocation: sourceLocation)
            return
        }
        guard let data = FileManager.default.contents(atPath: url.path) else {
            Issue.record(
                "no golden file \(url.path); run with STINT_RECORD_GOLDEN=1 to record it",
                sourceLocation: sourceLocation)
            return
        }
        let expected = String(decoding: data, as: UTF8.self)
        guard actual != expected else { return }
        Issue.record(
            "\(name) differs from its golden file:\n\(firstDifference(actual, expected))",
            sourceLocation: sourceLocation)
    }

    /// The first line where `actual` and `expected` differ, both versions shown.
    static func firstDifference(_ actual: String, _ expected: String) -> String {
        let (actualLines, expectedLines) = (
            actual.split(separator: "\n", omittingEmptySubsequences: false),
            expected.split(separator: "\n", omittingEmptySubsequences: false)
        )
        for index in 0..<max(actualLines.count, expectedLines.count) {
            let left = index < actualLines.count ? String(actualLines[index]) : "<end>"
            let right = index < expectedLines.count ? String(expectedLines[index]) : "<end>"
            if left != right { return "line \(index + 1):\n  actual:   \(left)\n  expected: \(right)" }
        }
        return "(no line differs; the line endings do)"
    }
}
