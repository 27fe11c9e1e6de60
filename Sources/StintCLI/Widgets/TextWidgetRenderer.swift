/// Draws widget content as a boxed plain-text picture: fixed columns per family, no color, no escape
/// sequences, the same output on every machine.
///
/// Symbols stand in for what the widgets draw: `●` a tag's color dot, `[■ Stop]` and `[■ Stop All]` stop
/// buttons, `[▸ Work]` a quick-start button, `◷` a running timer on the lock screen. Sizes (columns ×
/// rows, frame included) are listed on ``WidgetFamily``; the layouts on each family's function.
enum TextWidgetRenderer {
    /// The box of a fixed-size family; nil for the Live Activity on the lock screen and in the expanded Dynamic
    /// Island, whose height follows its rows.
    static func box(for family: WidgetFamily) -> TextBox? {
        switch family {
        case .systemSmall: return TextBox(width: 26, height: 9)
        case .systemMedium, .summaryMedium: return TextBox(width: 54, height: 9)
        case .systemLarge, .summaryLarge: return TextBox(width: 54, height: 20)
        case .accessoryCircular: return TextBox(width: 11, height: 5)
        case .accessoryRectangular: return TextBox(width: 26, height: 5)
        case .accessoryInline, .dynamicIslandCompact: return TextBox(width: 34, height: 3)
        case .liveActivity, .dynamicIslandExpanded: return nil
        }
    }

    /// The width of the Live Activity's box.
    static let liveActivityWidth = 54

    /// `content` drawn as text, ending with a newline.
    static func render(_ content: WidgetContent) -> String {
        guard let box = box(for: content.family) else { return liveActivity(content) }
        let lines: [String]
        switch content.family {
        case .systemSmall: lines = homeColumn(content, box: box, width: box.contentWidth)
        case .systemMedium: lines = medium(content, box: box)
        case .systemLarge: lines = large(content, box: box)
        case .accessoryCircular: lines = circular(content, width: box.contentWidth)
        case .accessoryRectangular: lines = rectangular(content, width: box.contentWidth)
        case .accessoryInline: lines = [inline(content, width: box.contentWidth)]
        case .summaryMedium, .summaryLarge: lines = summary(content, width: box.contentWidth)
        case .dynamicIslandCompact: lines = [dynamicIslandCompact(content, width: box.contentWidth)]
        case .liveActivity, .dynamicIslandExpanded: lines = []
        }
        return box.draw(lines)
    }

    /// The small widget, and the medium widget's left column.
    ///
    /// ```
    /// Refresh: stint publish     ← only on a stale snapshot
    /// ● Work
    /// 1:05
    /// Fixing the login bug       ← the timer's comment, if any
    ///
    /// +2 more                    ← when more timers run
    /// [        ■ Stop        ]
    /// ```
    /// With no timer running: the caption ("Today", or the stale text) on top, today's total and the
    /// record count at the bottom.
    static func homeColumn(_ content: WidgetContent, box: TextBox, width: Int) -> [String] {
        guard let timer = content.timers.shown.first else {
            return box.stack(top: [content.caption], bottom: [content.todayTotal, content.todayRecords])
        }
        var top = content.staleNotice.map { [$0] } ?? []
        top += ["● " + timer.name, timer.elapsed]
        if let comment = timer.comment { top.append(comment) }
        var bottom: [String] = []
        if content.timers.moreCount > 0 { bottom.append(WidgetWording.more(content.timers.moreCount)) }
        bottom.append(TextLine.button("■ " + WidgetWording.stop, width: width))
        return box.stack(top: top, bottom: bottom)
    }

    /// The medium widget: the small widget's content on the left, the quick-start buttons on the right.
    static func medium(_ content: WidgetContent, box: TextBox) -> [String] {
        let (leftWidth, gap) = (22, 4)
        let rightWidth = box.contentWidth - leftWidth - gap
        let left = homeColumn(content, box: box, width: leftWidth)
        let right = content.quickStart.map { TextLine.startButton($0.name, width: rightWidth) }
        return TextLine.columns(left, right, leftWidth: leftWidth, gap: gap, rightWidth: rightWidth)
    }

    /// The large widget.
    ///
    /// ```
    /// Today                                   2:15  ← caption (or the stale text) and today's total
    ///
    /// ● Work                           1:05 [■ Stop]  ← up to three timers,
    ///   Fixing the login bug                           each with its comment
    /// +1 more                         [■ Stop All]  ← "+N more" and Stop All when two or more run
    ///
    /// Time by Tag                        3 records
    /// ● Work                                1h 20m  ← today's time by tag, four rows
    ///
    /// [▸ Work              ]  [▸ Gym               ]  ← quick-start buttons, two by two
    /// ```
    static func large(_ content: WidgetContent, box: TextBox) -> [String] {
        let width = box.contentWidth
        var top = [TextLine.spread(content.caption, content.todayTotal, width: width), ""]
        if content.timers.isEmpty { top.append(WidgetWording.noTimerRunning) }
        for timer in content.timers.shown {
            top += timerRow(timer, time: timer.elapsed, width: width)
        }
        if content.timers.moreCount > 0 || content.showsStopAll {
            let more = content.timers.moreCount > 0 ? WidgetWording.more(content.timers.moreCount) : ""
            let stopAll = content.showsStopAll ? TextLine.button("■ " + WidgetWording.stopAll) : ""
            top.append(TextLine.spread(more, stopAll, width: width))
        }
        if let summary = content.summary {
            top += ["", TextLine.spread(summary.title, content.todayRecords, width: width)]
            top += summaryRows(summary, width: width)
        }
        let gap = 2
        let buttonWidth = (width - gap) / 2
        let buttons = content.quickStart.map { TextLine.startButton($0.name, width: buttonWidth) }
        let bottom = stride(from: 0, to: buttons.count, by: 2).map { index in
            buttons[index..<min(index + 2, buttons.count)].joined(separator: String(repeating: " ", count: gap))
        }
        return box.stack(top: top, bottom: bottom)
    }

    /// The circular lock screen widget: `◷`, the first timer's time and "+N"; or "Today" and today's total.
    static func circular(_ content: WidgetContent, width: Int) -> [String] {
        guard let timer = content.timers.shown.first else {
            return [
                TextLine.centered(WidgetWording.today, width: width),
                TextLine.centered(content.todayTotal, width: width),
            ]
        }
        let more = content.timers.moreCount > 0 ? "+\(content.timers.moreCount)" : ""
        return ["◷", timer.elapsed, more].map { TextLine.centered($0, width: width) }
    }

    /// The rectangular lock screen widget: a line per timer (name, time) and "+N more"; or "Today" and
    /// today's total.
    static func rectangular(_ content: WidgetContent, width: Int) -> [String] {
        guard !content.timers.isEmpty else { return [WidgetWording.today, content.todayTotal] }
        var lines = content.timers.shown.map { TextLine.spread($0.name, $0.elapsed, width: width) }
        if content.timers.moreCount > 0 { lines.append(WidgetWording.more(content.timers.moreCount)) }
        return lines
    }

    /// The inline lock screen widget: `◷ Work 1:05 +2`, the name giving way; or `Today 2:15`.
    static func inline(_ content: WidgetContent, width: Int) -> String {
        guard let timer = content.timers.shown.first else { return WidgetWording.today + " " + content.todayTotal }
        var suffix = " " + timer.elapsed
        if content.timers.moreCount > 0 { suffix += " +\(content.timers.moreCount)" }
        let prefix = "◷ "
        let room = width - TerminalColumns.of(prefix) - TerminalColumns.of(suffix)
        return prefix + TerminalColumns.truncated(timer.name, to: room) + suffix
    }

    /// The Time by Tag widgets: the title (or the stale text) and the total, then the rows or "No records".
    static func summary(_ content: WidgetContent, width: Int) -> [String] {
        guard let summary = content.summary else { return [] }
        return [TextLine.spread(content.caption, summary.total, width: width), ""] + summaryRows(summary, width: width)
    }

    /// `● name … time` per row, or "No records".
    static func summaryRows(_ summary: WidgetContent.Summary, width: Int) -> [String] {
        guard !summary.rows.isEmpty else { return [WidgetWording.noRecords] }
        return summary.rows.map { TextLine.spread("● " + $0.name, $0.time, width: width) }
    }

    /// The Live Activity on the lock screen and in the expanded Dynamic Island (the same rows): up to three
    /// rows, then "+N more" and Stop All; a note when no timer runs.
    ///
    /// ```
    /// ● Work                             1:05:12 [■ Stop]
    ///   Fixing the login bug
    /// ● Gym                                 5:07 [■ Stop]
    /// +2 more                            [■ Stop All]
    /// ```
    /// Times are the activity's ticking text (`M:SS`, `H:MM:SS`) frozen at the entry's date.
    static func liveActivity(_ content: WidgetContent) -> String {
        let width = liveActivityWidth - 4
        guard !content.timers.isEmpty else {
            return TextBox(width: liveActivityWidth, height: 3).draw([content.caption])
        }
        var lines = content.timers.shown.flatMap { timerRow($0, time: $0.clock, width: width) }
        if content.timers.moreCount > 0 || content.showsStopAll {
            let more = content.timers.moreCount > 0 ? WidgetWording.more(content.timers.moreCount) : ""
            let stopAll = content.showsStopAll ? TextLine.button("■ " + WidgetWording.stopAll) : ""
            lines.append(TextLine.spread(more, stopAll, width: width))
        }
        return TextBox(width: liveActivityWidth, height: lines.count + 2).draw(lines)
    }

    /// The compact Dynamic Island: the stopwatch and the first timer's ticking time; its tag's name stands in
    /// for the color the island draws them in. With no timer running, why there is no activity.
    ///
    /// ```
    /// ◷ Work                 1:05:12
    /// ```
    static func dynamicIslandCompact(_ content: WidgetContent, width: Int) -> String {
        guard let timer = content.timers.shown.first else { return content.caption }
        return TextLine.spread("◷ " + timer.name, timer.clock, width: width)
    }

    /// A timer's row: `● name`, `time` and a stop button on the right, and its comment, indented, on a
    /// second line when it has one.
    static func timerRow(_ timer: WidgetContent.Timer, time: String, width: Int) -> [String] {
        let first = TextLine.spread(
            "● " + timer.name, time + " " + TextLine.button("■ " + WidgetWording.stop), width: width)
        return [first] + (timer.comment.map { ["  " + $0] } ?? [])
    }
}
