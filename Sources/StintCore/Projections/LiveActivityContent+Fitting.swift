extension LiveActivityContent {
    /// The mark that ends a shortened text.
    static let ellipsis = "…"

    /// Shortens comments, then names, then drops colors until the encoding fits ``maximumEncodedBytes``.
    mutating func fitToEncodedLimit() {
        let limit = LiveActivityContent.maximumEncodedBytes
        guard encoded().count > limit else { return }
        let original = timers
        if let fitted = fitting(original, limit: limit, shorten: \.comment) {
            timers = fitted
            return
        }
        let withoutComments = original.map { timer in
            var copy = timer
            copy.comment = nil
            return copy
        }
        if let fitted = fitting(withoutComments, limit: limit, shorten: \.tagName) {
            timers = fitted
            return
        }
        timers = withoutComments.map { timer in
            var copy = timer
            copy.tagName = nil
            copy.tagColor = nil
            return copy
        }
    }

    /// `timers` with the text at `field` capped at the largest byte count that fits `limit`; nil when
    /// even dropping that text everywhere does not fit.
    private func fitting(
        _ timers: [WidgetTimer], limit: Int, shorten field: WritableKeyPath<WidgetTimer, String?>
    ) -> [WidgetTimer]? {
        func capped(_ cap: Int) -> [WidgetTimer] {
            timers.map { timer in
                var copy = timer
                copy[keyPath: field] = timer[keyPath: field].flatMap { LiveActivityContent.shorten($0, toBytes: cap) }
                return copy
            }
        }
        func fits(_ candidate: [WidgetTimer]) -> Bool {
            LiveActivityContent(timers: candidate, runningCount: runningCount).encoded().count <= limit
        }
        guard fits(capped(0)) else { return nil }
        // Invariant: capped(low) fits, capped(high) does not (the uncapped content did not fit).
        var low = 0
        var high = timers.map { LiveActivityContent.encodedLength($0[keyPath: field] ?? "") }.max() ?? 0
        while high - low > 1 {
            let middle = low + (high - low) / 2
            if fits(capped(middle)) {
                low = middle
            } else {
                high = middle
            }
        }
        return capped(low)
    }

    /// The bytes `text` takes inside a JSON string (UTF-8 after escaping, without the quotes).
    static func encodedLength(_ text: some StringProtocol) -> Int {
        var bytes: [UInt8] = []
        JSON.appendString(String(text), to: &bytes)
        return bytes.count - 2
    }

    /// `text` when it takes at most `limit` encoded bytes; otherwise its longest prefix of whole
    /// characters that fits with a trailing `…`; nil when not even one character fits.
    static func shorten(_ text: String, toBytes limit: Int) -> String? {
        if encodedLength(text) <= limit { return text }
        let budget = limit - encodedLength(ellipsis)
        var used = 0
        var end = text.startIndex
        for index in text.indices {
            let length = encodedLength(String(text[index]))
            guard used + length <= budget else { break }
            used += length
            end = text.index(after: index)
        }
        return end == text.startIndex ? nil : String(text[..<end]) + ellipsis
    }
}
