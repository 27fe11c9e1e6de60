import Testing

@testable import StintCLI
@testable import StintCore

/// The CSV export's byte writer (`ExportRun.appendCSV`) against the `String` path it replaces on the hot path.
@Suite struct ExportWriterTests {
    @Test func csvLinesAreTheBytesOfTheStringPath() {
        let now = Instant(canonical: "2026-11-01T07:00:00.000Z")!
        let texts: [String?] = [
            nil, "", "plain", #"say "hi""#, "a,b", "line\nbreak", "cr\rlf\r\n", "\u{0}\u{1F}\u{7F}", "ünïcödé 日本 👩‍💻",
            #""""#, "=SUM(A1)", " spaced ",
        ]
        var tags: [EntityID: StintCore.Tag] = [:]
        for (index, name) in texts.compactMap({ $0 }).enumerated() {
            let id = EntityID(high: 7, low: UInt64(index))
            tags[id] = StintCore.Tag(id: id, name: name, color: "#000000", isDeleted: index == 3)
        }
        let tagIds: [EntityID?] = [nil] + tags.keys.sorted().map(Optional.some)
        for zone in ["America/New_York", "Asia/Kathmandu", "UTC"] {
            let frame = RecordExport.Frame(
                calendar: LogCalendar(timeZone: zone, firstWeekday: 1)!, now: now, since: nil, until: nil, tags: tags)
            var writer = RecordExport.RowWriter(frame)
            for (index, comment) in texts.enumerated() {
                // Across New York's repeated hour on 2026-11-01 (05:00Z–07:00Z), with and without milliseconds.
                let start = Instant(canonical: "2026-11-01T04:30:00.000Z")!.adding(milliseconds: Int64(index) * 600_037)
                for end in [nil, start.adding(milliseconds: 4_200_000), start.adding(milliseconds: 1_250)] {
                    let record = Record(
                        id: EntityID(high: 9, low: UInt64(index)), start: start, end: end,
                        tagId: tagIds[index % tagIds.count], comment: comment)
                    let row = RecordExport.Row(record, tags: tags, now: now)
                    var bytes: [UInt8] = []
                    ExportRun.appendCSV(row, &writer, to: &bytes)
                    #expect(bytes == Array(CSV.line(ExportRun.csvFields(row, frame)).utf8), "\(zone) \(index)")
                }
            }
        }
    }
}
