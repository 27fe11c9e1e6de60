import Foundation
import Testing

@testable import StintEngine

/// Models of another schema version are made again in place (docs/read-models.md): every table the schema
/// creates is one the reset drops, or opening models that another version wrote (with a table this one also
/// creates) fails and the file is deleted instead.
@Suite struct ReadModelSchemaTests {
    @Test func modelsOfAnotherVersionAreMadeAgainInPlace() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("stint-schema-\(UUID())").path
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: false)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let model = try ReadModel.open(inLogDirectory: directory)
        try model.database.execute("PRAGMA user_version = \(ReadModel.schemaVersion - 1)")
        model.close()

        let reopened = try ReadModel.open(inLogDirectory: directory)
        defer { reopened.close() }
        let version = try reopened.database.statement("PRAGMA user_version")
        #expect(try version.step() && version.integer(0) == ReadModel.schemaVersion)
        // The reset leaves no table behind.
        try reopened.database.execute(ReadModel.dropAll)
        let tables = try reopened.database.statement("SELECT name FROM sqlite_master WHERE type = 'table'")
        var left: [String] = []
        while try tables.step() { left.append(tables.text(0) ?? "") }
        #expect(left == [], "tables the reset does not drop")
    }
}
