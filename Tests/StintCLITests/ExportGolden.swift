import Foundation
import Testing

/// Compares export output with golden files under `__Snapshots__/Export/` beside this file, recorded like
/// the widget goldens (`STINT_RECORD_GOLDEN=1` rewrites them and fails the run).
enum ExportGolden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("__Snapshots__").appendingPathComponent("Export")

    static func check(_ actual: String, against name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = directory.appendingPathComponent(name)
        if WidgetGolden.isRecording {
            do {
                try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try Data(actual.utf8).write(to: url)
            } catch {
                Issue.record("could not write \(url.path): \(error)", sourceLocation: sourceLocation)
                return
            }
            Issue.record("recorded \(name); unset STINT_RECORD_GOLDEN and run again", sourceLocation: sourceLocation)
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
            "\(name) differs from its golden file:\n\(WidgetGolden.firstDifference(actual, expected))",
            sourceLocation: sourceLocation)
    }
}
