import StintCore
import Testing

@testable import StintCLI

/// Every family rendered from the fixture scenarios, as text and as SVG, compared with golden files.
@Suite struct WidgetGoldenTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var family: WidgetFamily
        var scenario: WidgetFixtures.Scenario
        var period: WidgetPeriod = .thisWeek

        /// `systemSmall-oneTimer`, `summaryLarge-fourTimers-month`.
        var name: String {
            "\(family.name)-\(scenario.rawValue)" + (period == .thisWeek ? "" : "-\(period.name)")
        }

        var testDescription: String { name }
    }

    static let cases: [Case] = {
        var cases: [Case] = []
        for family in WidgetFamily.allCases {
            for scenario in WidgetFixtures.Scenario.allCases where shows(scenario, in: family) {
                cases.append(Case(family: family, scenario: scenario))
            }
        }
        for family in [WidgetFamily.summaryMedium, .summaryLarge] {
            cases.append(Case(family: family, scenario: .fourTimers, period: .today))
            cases.append(Case(family: family, scenario: .fourTimers, period: .thisMonth))
        }
        return cases
    }()

    /// Leaves out renders that would repeat another: the Live Activity (on the lock screen and in the Dynamic
    /// Island) shows the same nothing for an idle log as for an empty one and is not drawn from a snapshot,
    /// and the lock screen shows no staleness (so a stale render repeats the fresh one with other numbers).
    static func shows(_ scenario: WidgetFixtures.Scenario, in family: WidgetFamily) -> Bool {
        switch (family, scenario) {
        case (_, .idle) where family.isLiveActivity, (_, .stale) where family.isLiveActivity,
            (_, .staleIdle) where family.isLiveActivity:
            return false
        case (.accessoryCircular, .stale), (.accessoryRectangular, .stale), (.accessoryInline, .stale),
            (.accessoryCircular, .staleIdle), (.accessoryRectangular, .staleIdle), (.accessoryInline, .staleIdle):
            return false
        default: return true
        }
    }

    @Test(arguments: cases)
    func rendersAsItsGoldenFiles(_ golden: Case) {
        let entry = golden.scenario.entry
        for format in WidgetRenderFormat.allCases {
            let rendered = WidgetRenderer.render(
                golden.family, entry: entry, calendar: WidgetFixtures.calendar, period: golden.period, format: format)
            WidgetGolden.check(rendered, against: "\(golden.name).\(format == .text ? "txt" : "svg")")
        }
    }
}
