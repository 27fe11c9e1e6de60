import Foundation
import FoundationXML
import StintCore
import Testing

@testable import StintCLI

/// Properties every render has, whatever the log holds: text boxes keep their frame, SVG documents are
/// well formed, sized and self-contained, nothing from the log reaches either format unescaped.
@Suite struct WidgetRenderingTests {
    typealias F = WidgetFixtures

    /// A snapshot made to break renderers: control characters, a newline and an escape sequence in a
    /// comment, a 500-character comment, emoji sequences, combining marks, and colors that are not colors.
    static let hostile: WidgetData = {
        let now = F.publishedAt
        let names = [
            "Tab\there\nnewline", "👩‍💻 Dev 🇩🇪", "e\u{301}te\u{301} cafe\u{301}", #""/><script>alert(1)</script>"#,
            String(repeating: "漢", count: 64),
        ]
        let colors = [#""/><script>"#, "#12345", "red", "#ABCDEF", "#abcdef"]
        let timers = names.indices.map { index in
            WidgetTimer(
                id: F.recordId(UInt64(index + 1)), startTime: now.adding(milliseconds: -Int64(index + 1) * 600_000),
                tagId: F.tagId(UInt64(index + 1)), tagName: names[index], tagColor: colors[index],
                comment: index == 0
                    ? "\u{1B}[31mred\u{1B}[0m and a NUL \u{0} and a bell \u{7}"
                    : String(repeating: "long comment ", count: 40))
        }
        let tags = names.indices.map { WidgetTag(id: F.tagId(UInt64($0 + 1)), name: names[$0], color: colors[$0]) }
        let today = F.calendar.startOfDay(containing: now)
        return WidgetData(
            runningTimers: timers, todayRecordsCount: 7, todayCompletedMilliseconds: 3_600_000, recentTags: tags,
            dailyTotals: tags.map { WidgetDayTotal(day: today, tagId: $0.id, milliseconds: 1_800_000) },
            summaryTags: tags, lastUpdated: now)
    }()

    /// Every family × the fixture scenarios and the hostile snapshot (with all timers, one, or none).
    static let entries: [(String, WidgetTimelineEntry)] = {
        var entries = F.Scenario.allCases.map { ($0.rawValue, $0.entry) }
        for count in [0, 1, 5] {
            var data = hostile
            data.runningTimers = Array(data.runningTimers.prefix(count))
            entries.append(
                (
                    "hostile\(count)",
                    WidgetTimelineEntry(date: F.publishedAt, isRolledOver: false, data: data, calendar: F.calendar)
                ))
        }
        return entries
    }()

    static func renders(_ format: WidgetRenderFormat) -> [(String, String)] {
        var renders: [(String, String)] = []
        for family in WidgetFamily.allCases {
            for (name, entry) in entries {
                for period in family.isSummary ? WidgetPeriod.allCases : [.thisWeek] {
                    let text = WidgetRenderer.render(
                        family, entry: entry, calendar: F.calendar, period: period, format: format)
                    renders.append(("\(family.name) \(name) \(period.name)", text))
                }
            }
        }
        return renders
    }

    // MARK: Text

    @Test func textBoxesKeepTheirFrameWhateverTheyHold() throws {
        for (name, text) in Self.renders(.text) {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            #expect(lines.last == "", "\(name): ends with a newline")
            let rows = lines.dropLast()
            let family = try #require(WidgetFamily(name: String(name.prefix { $0 != " " })))
            let width = TextWidgetRenderer.box(for: family)?.width ?? TextWidgetRenderer.liveActivityWidth
            if let box = TextWidgetRenderer.box(for: family) {
                #expect(rows.count == box.height, "\(name)")
            }
            for (index, row) in rows.enumerated() {
                #expect(TerminalColumns.of(String(row)) == width, "\(name) row \(index): \(row)")
                let isEdge = index == 0 || index == rows.count - 1
                #expect(row.first == (isEdge ? (index == 0 ? "╭" : "╰") : "│"), "\(name) row \(index)")
                #expect(row.last == (isEdge ? (index == 0 ? "╮" : "╯") : "│"), "\(name) row \(index)")
            }
            #expect(
                !text.unicodeScalars.contains { $0.properties.generalCategory == .control && $0 != "\n" },
                "\(name): no control characters, so no escape sequences")
        }
    }

    @Test func textTruncatesByColumnsWithAnEllipsis() {
        #expect(TerminalColumns.truncated("abcdef", to: 6) == "abcdef")
        #expect(TerminalColumns.truncated("abcdef", to: 4) == "abc…")
        #expect(TerminalColumns.truncated("読書読書", to: 5) == "読書…")
        #expect(TerminalColumns.truncated("読書読書", to: 4) == "読…")
        #expect(TerminalColumns.truncated("Fixing the bug", to: 11) == "Fixing the…")
        #expect(TerminalColumns.truncated("abc", to: 0) == "")
        #expect(TerminalColumns.of("👩‍💻") == 2)
        #expect(TerminalColumns.of("e\u{301}") == 1)
        #expect(TerminalColumns.of("🇩🇪") == 2)
        #expect(TerminalColumns.of("❤️") == 2)
        #expect(TerminalColumns.of("●▸■╭─│") == 6)
    }

    @Test func spreadKeepsTheRightSideWhole() {
        #expect(TextLine.spread("Work", "1:05", width: 12) == "Work    1:05")
        #expect(TextLine.spread("Quarterly planning", "1:05", width: 12) == "Quarte… 1:05")
        #expect(TextLine.spread("", "[■ Stop All]", width: 14) == "  [■ Stop All]")
        #expect(TextLine.spread("Work", "", width: 6) == "Work  ")
    }

    // MARK: SVG

    /// Collects the root element's attributes and checks the document parses.
    final class RootReader: NSObject, XMLParserDelegate {
        var root: (name: String, attributes: [String: String])?
        var elementNames: Set<String> = []
        var texts: [String] = []

        func parser(
            _ parser: XMLParser, didStartElement name: String, namespaceURI: String?, qualifiedName: String?,
            attributes: [String: String] = [:]
        ) {
            if root == nil { root = (name, attributes) }
            elementNames.insert(name)
        }

        func parser(_ parser: XMLParser, foundCharacters string: String) {
            texts.append(string)
        }
    }

    @Test func svgDocumentsAreWellFormedSizedAndSelfContained() throws {
        for (name, svg) in Self.renders(.svg) {
            let reader = RootReader()
            let parser = XMLParser(data: Data(svg.utf8))
            parser.delegate = reader
            #expect(parser.parse(), "\(name): \(parser.parserError.map { "\($0)" } ?? "")")
            let root = try #require(reader.root, "\(name)")
            #expect(root.name == "svg")
            #expect(root.attributes["xmlns"] == "http://www.w3.org/2000/svg")
            #expect(root.attributes["version"] == "1.1")
            #expect(root.attributes["font-family"] == "-apple-system, system-ui, sans-serif")
            let family = try #require(WidgetFamily(name: String(name.prefix { $0 != " " })))
            let width = try #require(root.attributes["width"].flatMap { Int($0) })
            let height = try #require(root.attributes["height"].flatMap { Int($0) })
            #expect(root.attributes["viewBox"] == "0 0 \(width) \(height)")
            if let size = SVGWidgetRenderer.size(of: family) {
                #expect(width == size.width && height == size.height, "\(name)")
            } else {
                #expect(width == SVGWidgetRenderer.activityWidth(of: family) && (58...160).contains(height), "\(name)")
            }
            #expect(
                reader.elementNames.isSubset(of: [
                    "svg", "title", "defs", "clipPath", "rect", "circle", "g", "text", "path",
                ]))
            #expect(!svg.contains("href") && !svg.contains("@import") && !svg.contains("<script"), "\(name)")
            #expect(!svg.contains("nan") && !svg.contains("inf"), "\(name)")
            #expect(!reader.texts.joined().contains("\u{1B}"), "\(name)")
        }
    }

    @Test func svgNumbersAreIntegersOrHaveOneDecimal() throws {
        let number = try Regex(#"="(-?[0-9]+(\.[0-9]+)?)( -?[0-9]+(\.[0-9]+)?)*""#)
        for (name, svg) in Self.renders(.svg) {
            for match in svg.matches(of: number) {
                let value = String(svg[match.range].dropFirst(2).dropLast())  // without `="` and `"`
                let decimals = value.split(separator: " ").map {
                    $0.split(separator: ".").dropFirst().first?.count ?? 0
                }
                #expect(decimals.allSatisfy { $0 <= 1 }, "\(name): \(value)")
            }
        }
    }

    @Test func svgEscapesEveryXMLSpecialCharacter() {
        let svg = WidgetRenderer.render(
            .systemLarge, entry: F.Scenario.fourTimers.entry, calendar: F.calendar, format: .svg)
        #expect(svg.contains("R&amp;D &lt;&quot;core&quot;&gt; &apos;v2&apos;"))
        #expect(svg.contains("Review &lt;PR #42&gt; &amp; &quot;merge"))
        #expect(!svg.contains(#"<"core">"#))
    }

    @Test func colorsThatAreNotColorsDrawAsUntagged() {
        #expect(WidgetColor(hex: "#abcdef")?.hex == "#ABCDEF")
        #expect(WidgetColor(hex: "#ABCDEF")?.hex == "#ABCDEF")
        for bad in ["#12345", "#1234567", "red", "ABCDEF", "#GGGGGG", #""/><script>"#, ""] {
            #expect(WidgetColor(hex: bad) == nil, "\(bad)")
            #expect(WidgetColor.tag(bad) == .untagged)
        }
        // Five tags with half an hour each today: the large summary lists them all with their colors.
        let svg = WidgetRenderer.render(
            .summaryLarge,
            entry: WidgetTimelineEntry(
                date: F.publishedAt, isRolledOver: false, data: Self.hostile, calendar: F.calendar),
            calendar: F.calendar, period: .today, format: .svg)
        let dots = svg.matches(of: #/<circle cx="\d+" cy="\d+" r="5" fill="(#[0-9A-F]{6})"/>/#).map {
            String($0.output.1)
        }
        #expect(dots.sorted() == ["#8E8E93", "#8E8E93", "#8E8E93", "#ABCDEF", "#ABCDEF"])
    }

    @Test func rendersAreDeterministic() {
        #expect(Self.renders(.svg).map(\.1) == Self.renders(.svg).map(\.1))
        #expect(Self.renders(.text).map(\.1) == Self.renders(.text).map(\.1))
    }

    @Test func numbersKeepOneDecimalWithoutNoise() {
        #expect(SVGCanvas.number(207.34511) == "207.3")
        #expect(SVGCanvas.number(12) == "12")
        #expect(SVGCanvas.number(-0.5) == "-0.5")
        #expect(SVGCanvas.number(0.04) == "0")
        #expect(SVGCanvas.number(2 * Double.pi * 32) == "201.1")
    }

    // MARK: Formatting and timelines

    @Test(arguments: [
        (Int64(-5_000), "0:00"), (0, "0:00"), (7_999, "0:07"), (312_000, "5:12"), (3_599_999, "59:59"),
        (3_600_000, "1:00:00"), (3_912_000, "1:05:12"), (93_784_000, "26:03:04"),
    ])
    func theLiveActivityClockShowsSecondsLikeATimerText(milliseconds: Int64, text: String) {
        #expect(LiveActivityClock.text(milliseconds: milliseconds) == text)
    }

    @Test func theEntryInEffectIsTheLastOneAtOrBeforeTheMoment() throws {
        let data = F.Scenario.oneTimer.snapshot
        let published = F.publishedAt
        let timeline = WidgetTimelineBuilder.timeline(for: data, now: published, calendar: F.calendar)
        #expect(timeline.entry(at: published.adding(milliseconds: -1)) == nil)
        #expect(timeline.entry(at: published)?.date == published)
        // 15:42:20.5 → the entry at 15:43 is in effect from 15:43:00 to 15:43:59.999.
        let minute = F.instant("2026-11-25T15:43:00+01:00")
        #expect(timeline.entry(at: minute.adding(milliseconds: -1))?.date == published)
        #expect(timeline.entry(at: minute.adding(milliseconds: 59_999))?.date == minute)

        let helper = { (instant: Instant) in
            WidgetTimelineBuilder.entry(for: data, publishedAt: published, at: instant, calendar: F.calendar)
        }
        #expect(helper(published.adding(milliseconds: -1)) == nil)
        #expect(helper(minute.adding(milliseconds: 30_000))?.date == minute)
        let end = try #require(timeline.entries.last).date
        #expect(helper(end)?.date == end)
        // After the last entry the widget has reloaded at it: the entry in effect is that timeline's.
        let later = end.adding(milliseconds: 90_000)
        #expect(helper(later)?.date == end.adding(milliseconds: 60_000), "after the last entry the widget reloaded")
        let dayLater = try #require(helper(published.adding(milliseconds: 25 * 3_600_000)))
        #expect(dayLater.data.isStale(at: dayLater.date))
        #expect(dayLater.date == F.instant("2026-11-26T16:42:00+01:00"))
    }
}
