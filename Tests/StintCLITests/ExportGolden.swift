import Foundation
import Testing

/// Compares export output with golden files under `__Snapshots__/Export/` beside this file, recorded like
/// the widget goldens (`STINT_RECORD_GOLDEN=1` rewrites them and fails the run).
enum ExportGolden {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("__Snapshots__").appendingPathComponent("Export")

    static func check(_ actual: String, against name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        WidgetGolden.check(actual, against: name, in: directory, sourceLocation: sourceLocation)
    }
}
