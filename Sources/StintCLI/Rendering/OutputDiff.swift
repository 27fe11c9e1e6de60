import StintCore

/// Explains how an actual output differs from an expected one: by JSON path when both are JSON,
/// else by line.
enum OutputDiff {
    /// One difference: where, what was expected, what came out.
    struct Difference: Equatable {
        var path: String
        var expected: String
        var actual: String
    }

    /// The differences between two outputs, empty when they are equal byte for byte.
    ///
    /// Outputs that are equal as JSON values but not as bytes (different spacing or key order) are a
    /// difference too, reported at the root, because Stint promises identical bytes.
    static func differences(expected: String, actual: String) -> [Difference] {
        guard expected != actual else { return [] }
        if let left = try? JSON.parse(expected), let right = try? JSON.parse(actual) {
            var found: [Difference] = []
            compare(left, right, path: "$", into: &found)
            if found.isEmpty {
                found.append(
                    Difference(path: "$", expected: "the same JSON", actual: "different bytes (spacing or key order)"))
            }
            return found
        }
        return lineDifferences(expected: expected, actual: actual)
    }

    static func compare(_ expected: JSON, _ actual: JSON, path: String, into found: inout [Difference]) {
        switch (expected, actual) {
        case (.object(let left), .object(let right)):
            let rightByKey = Dictionary(right.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            let leftKeys = Set(left.map(\.key))
            for field in left {
                let childPath = path + "." + field.key
                if let value = rightByKey[field.key] {
                    compare(field.value, value, path: childPath, into: &found)
                } else {
                    found.append(Difference(path: childPath, expected: field.value.encodedString, actual: "(missing)"))
                }
            }
            for field in right where !leftKeys.contains(field.key) {
                found.append(
                    Difference(path: path + "." + field.key, expected: "(absent)", actual: field.value.encodedString))
            }
            if found.isEmpty, left.map(\.key) != right.map(\.key) {
                found.append(
                    Difference(
                        path: path, expected: "keys " + left.map(\.key).joined(separator: ","),
                        actual: "keys " + right.map(\.key).joined(separator: ",")))
            }
        case (.array(let left), .array(let right)):
            for index in 0..<min(left.count, right.count) {
                compare(left[index], right[index], path: "\(path)[\(index)]", into: &found)
            }
            if left.count != right.count {
                found.append(
                    Difference(path: "\(path).length", expected: String(left.count), actual: String(right.count)))
            }
        default:
            if expected != actual {
                found.append(Difference(path: path, expected: expected.encodedString, actual: actual.encodedString))
            }
        }
    }

    static func lineDifferences(expected: String, actual: String) -> [Difference] {
        let left = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let right = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var found: [Difference] = []
        for index in 0..<max(left.count, right.count) {
            // Lines are quoted (as JSON strings), so leading and trailing spaces and tabs show.
            let l = index < left.count ? JSON.string(String(left[index])).encodedString : "(no line)"
            let r = index < right.count ? JSON.string(String(right[index])).encodedString : "(no line)"
            if l != r { found.append(Difference(path: "line \(index + 1)", expected: l, actual: r)) }
        }
        return found
    }

    /// Lines for people: `  $.dailyTotals[0].seconds: expected 3600, got 3000`.
    static func render(_ differences: [Difference], limit: Int = 20) -> [String] {
        var lines = differences.prefix(limit).map { "\($0.path): expected \($0.expected), got \($0.actual)" }
        if differences.count > limit { lines.append("… and \(differences.count - limit) more differences") }
        return lines
    }
}
