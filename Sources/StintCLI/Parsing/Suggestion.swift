/// "Did you mean" suggestions by edit distance.
enum Suggestion {
    /// The candidate closest to `word`, when it is close enough to be a plausible typo.
    static func nearest(to word: String, among candidates: [String]) -> String? {
        let stripped = strip(word)
        let scored = candidates.map { ($0, distance(stripped, strip($0))) }
        guard let best = scored.min(by: { $0.1 < $1.1 || ($0.1 == $1.1 && $0.0 < $1.0) }) else { return nil }
        let limit = min(2, max(1, stripped.count / 4 + 1))
        return best.1 <= limit ? best.0 : nil
    }

    private static func strip(_ word: String) -> String {
        String(word.drop { $0 == "-" })
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and adjacent swaps.
    static func distance(_ a: String, _ b: String) -> Int {
        let a = Array(a)
        let b = Array(b)
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var rows = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in 0...a.count { rows[i][0] = i }
        for j in 0...b.count { rows[0][j] = j }
        for i in 1...a.count {
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                rows[i][j] = min(rows[i - 1][j] + 1, rows[i][j - 1] + 1, rows[i - 1][j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    rows[i][j] = min(rows[i][j], rows[i - 2][j - 2] + 1)
                }
            }
        }
        return rows[a.count][b.count]
    }
}
