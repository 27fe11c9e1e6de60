extension ReadModel {
    /// Every row of every table of the read models at `path`, and their schema, in a fixed order: values
    /// quoted as SQLite's `quote()` gives them (so that an integer and its text differ), columns joined by
    /// `|`, rows sorted. Two rebuilds wrote the same read models when their dumps are equal.
    package static func dump(inLogDirectory path: String) throws(ReadModelError) -> [String: [String]] {
        let model = try ReadModel.open(inLogDirectory: path)
        defer { model.close() }
        var tables: [String: [String]] = [:]
        let schema = try model.database.statement("SELECT type, name, sql FROM sqlite_master ORDER BY name")
        var names: [String] = []
        while try schema.step() {
            tables["schema", default: []].append(
                "\(schema.text(0) ?? "") \(schema.text(1) ?? "") \(schema.text(2) ?? "")")
            if schema.text(0) == "table", let name = schema.text(1) { names.append(name) }
        }
        for name in names {
            let columns = try model.database.statement("SELECT name FROM pragma_table_info(?) ORDER BY cid").bind(
                .text(name))
            var quoted: [String] = []
            while try columns.step() { quoted.append("quote(\"\(columns.text(0) ?? "")\")") }
            let rows = try model.database.statement(
                "SELECT \(quoted.joined(separator: " || '|' || ")) FROM \"\(name)\" ORDER BY 1")
            while try rows.step() { tables[name, default: []].append(rows.text(0) ?? "NULL") }
        }
        return tables
    }
}
