import StintCore

/// The local days (days since 1970-01-01) that lie wholly inside some running record's span, as sorted runs
/// that neither overlap nor touch.
///
/// On such a day the union of any records' time is the whole day, so a report adds the time between a run's
/// midnights instead of computing each day: a timer left running for years costs a report a few calendar
/// questions, not a query per day it covers.
struct WholeDayRuns {
    private(set) var runs: [ClosedRange<Int64>] = []

    /// The runs of the days wholly inside `spans` (each `[start, end)` in milliseconds), cut to `days`.
    init(_ spans: [(start: Int64, end: Int64)], within days: ClosedRange<Int64>, calendar: LogCalendar) {
        var found: [ClosedRange<Int64>] = []
        for span in spans {
            guard let whole = Self.wholeDays(of: span, calendar: calendar) else { continue }
            let cut = (max(whole.lowerBound, days.lowerBound), min(whole.upperBound, days.upperBound))
            if cut.0 <= cut.1 { found.append(cut.0...cut.1) }
        }
        for run in found.sorted(by: { $0.lowerBound < $1.lowerBound }) {
            if let last = runs.last, run.lowerBound <= last.upperBound + 1 {
                runs[runs.count - 1] = last.lowerBound...max(last.upperBound, run.upperBound)
            } else {
                runs.append(run)
            }
        }
    }

    /// The days whose midnight is at or after the span's start and whose next midnight is at or before its
    /// end; nil when there is none.
    static func wholeDays(of span: (start: Int64, end: Int64), calendar: LogCalendar) -> ClosedRange<Int64>? {
        let startDate = calendar.date(of: Instant(milliseconds: span.start))
        let first =
            calendar.startOfDay(startDate).milliseconds == span.start
            ? startDate.daysSinceEpoch : startDate.daysSinceEpoch + 1
        // The day holding the end instant is not whole: its next midnight comes after the end.
        let last = calendar.date(of: Instant(milliseconds: span.end)).daysSinceEpoch - 1
        return first <= last ? first...last : nil
    }

    /// No day.
    static let empty = WholeDayRuns()

    private init() {}

    /// The days of a span that are not whole in it: the day of its start and the day of its last instant
    /// (the same day for a span within one; the day of its start for a span of no length). Every other day
    /// the span touches is one of ``wholeDays(of:calendar:)``.
    static func edgeDays(of span: (start: Int64, end: Int64), calendar: LogCalendar) -> [Int64] {
        let days = ReadModel.days(from: span.start, to: span.end, calendar: calendar)
        return [days.lowerBound, days.upperBound]
    }

    func contains(_ day: Int64) -> Bool {
        let index = Self.firstIndex(in: runs.count) { runs[$0].upperBound >= day }
        return index < runs.count && runs[index].contains(day)
    }

    /// The days of `sortedDays` (in ascending order) that lie in `days`.
    static func slice(of sortedDays: [Int64], in days: ClosedRange<Int64>) -> ArraySlice<Int64> {
        let start = firstIndex(in: sortedDays.count) { sortedDays[$0] >= days.lowerBound }
        let end = firstIndex(in: sortedDays.count) { sortedDays[$0] > days.upperBound }
        return sortedDays[start..<max(start, end)]
    }

    /// The first index below `count` where `isAtOrAfter` holds (it holds from some index on), or `count`.
    private static func firstIndex(in count: Int, where isAtOrAfter: (Int) -> Bool) -> Int {
        var low = 0
        var high = count
        while low < high {
            let middle = (low + high) / 2
            if isAtOrAfter(middle) {
                high = middle
            } else {
                low = middle + 1
            }
        }
        return low
    }

    /// The time from the first midnight of each run to the midnight after its last day, summed.
    func milliseconds(calendar: LogCalendar) -> Int64 {
        runs.reduce(0) { total, run in
            total + calendar.startOfDay(CivilDate(daysSinceEpoch: run.upperBound + 1)).milliseconds
                - calendar.startOfDay(CivilDate(daysSinceEpoch: run.lowerBound)).milliseconds
        }
    }
}
