import StintCore

/// Split at midnight, from the day-and-tag totals: every record's part inside the range counts on the day it
/// falls on (`ReportTotalsRead` says what is read; this adds it up).
extension ReportTotalsRead {
    mutating func splitAtMidnight(_ grouping: TimeReport.Grouping) throws(ReadModelError)
        -> (TimeReport.Totals, [CivilDate: TimeReport.Totals])
    {
        let (from, to) = (range.start.milliseconds, range.end.milliseconds)
        var whole = TimeReport.Totals()
        // The records with time in the range: those that start in it with a length, and those that started
        // before it and run into it.
        for day in cells.values {
            for cell in day.values {
                whole.recordCount += cell.records - cell.empty
                crossingMidnight += cell.crossing
            }
        }
        let before =
            try records(overlapping: (from, Int64.max), startingIn: (from - longest, from))
            + running.filter { $0.span.start < from }
        whole.recordCount += before.count
        for record in before
        where ReadModel.days(from: record.span.start, to: record.span.end, calendar: head.calendar).count > 1 {
            crossingMidnight += 1
        }
        var periods: [CivilDate: TimeReport.Totals] = [:]
        let calendar = head.calendar
        func add(_ perTag: [EntityID?: Int64], wallClock: Int64, on day: Int64) {
            whole.add(perTag, wallClock: wallClock)
            guard grouping != .tag else { return }
            let first = TimeReport.periodStart(
                of: CivilDate(daysSinceEpoch: day), grouping: grouping, calendar: calendar)
            periods[first, default: .init()].add(perTag, wallClock: wallClock)
        }
        // The days wholly in the range that a running record covers wholly: each run is added a period at a
        // time, its days' stored time per tag and the running records' parts, whole on the wall clock.
        let cut = cutDays(from: from, to: to)
        let firstWhole = cut.contains(firstDay) ? firstDay + 1 : firstDay
        let lastWhole = cut.contains(lastDay) ? lastDay - 1 : lastDay
        let covered =
            firstWhole <= lastWhole
            ? WholeDayRuns(running.map(\.span), within: firstWhole...lastWhole, calendar: calendar) : .empty
        for run in covered.runs {
            var low = run.lowerBound
            while low <= run.upperBound {
                var high = run.upperBound
                if grouping != .tag {
                    let first = TimeReport.periodStart(
                        of: CivilDate(daysSinceEpoch: low), grouping: grouping, calendar: calendar)
                    let next = TimeReport.periodEnd(from: first, grouping: grouping, calendar: calendar)
                    high = min(high, next.daysSinceEpoch - 1)
                }
                let window = (start(of: low), start(of: high + 1))
                var perTag: [EntityID?: Int64] = [:]
                for day in WholeDayRuns.slice(of: tagTimeDays, in: low...high) {
                    for (tag, time) in dayTagTime[day] ?? [] { perTag[tag, default: 0] += time.milliseconds }
                }
                for part in Self.cut(running, to: window) {
                    perTag[part.tag, default: 0] += part.span.end - part.span.start
                }
                add(perTag.filter { $0.value > 0 }, wallClock: window.1 - window.0, on: low)
                low = high + 1
            }
        }
        // The days computed again: those the range cuts, those a running record reaches in part.
        var computed = cut
        for record in running {
            let inside = (max(from, record.span.start), min(to, record.span.end))
            computed.formUnion(WholeDayRuns.edgeDays(of: inside, calendar: calendar))
        }
        for day in Set(tagTimeDays).union(computed) where !covered.contains(day) {
            var perTag: [EntityID?: Int64] = [:]
            var wall: Int64
            if !computed.contains(day), let stored = storedWall(of: day) {
                for (tag, time) in dayTagTime[day] ?? [] { perTag[tag, default: 0] += time.milliseconds }
                wall = stored
            } else {
                let window = (max(from, start(of: day)), min(to, start(of: day + 1)))
                let parts = try parts(of: window, startingIn: (Int64.min, to)) + Self.cut(running, to: window)
                for part in parts { perTag[part.tag, default: 0] += part.span.end - part.span.start }
                wall = Self.union(parts)
            }
            guard perTag.values.contains(where: { $0 > 0 }) else { continue }
            add(perTag.filter { $0.value > 0 }, wallClock: wall, on: day)
        }
        return (whole, periods)
    }
}

extension TimeReport.Totals {
    /// Adds a day's time per tag and wall clock (of split parts, which add up over days).
    fileprivate mutating func add(_ perTag: [EntityID?: Int64], wallClock: Int64) {
        for (tag, milliseconds) in perTag { self.perTag[tag, default: 0] += milliseconds }
        self.wallClock += wallClock
    }
}
