extension SVGWidgetRenderer {
    /// The small widget (170 × 170), and the medium widget's left column, `width` points wide from `x`.
    ///
    /// A timer running: the stale text if any, the color dot and tag name, the elapsed time in 30-point
    /// bold, the comment, then at the bottom "+N more" and a full-width Stop button. None running: the
    /// caption ("Today" or the stale text) at the top, today's total in 34-point bold and the record
    /// count at the bottom.
    static func homeColumn(_ content: WidgetContent, on canvas: inout SVGCanvas, x: Int, width: Int) {
        let palette = SVGPalette.light
        let bottom = canvas.height - padding
        guard let timer = content.timers.shown.first else {
            caption(content, on: &canvas, x: x, y: padding + 12, maxWidth: width)
            canvas.text(content.todayTotal, x: x, y: bottom - 22, size: 34, weight: .bold, fill: palette.primary)
            canvas.text(content.todayRecords, x: x, y: bottom - 2, size: 13, fill: palette.secondary, maxWidth: width)
            return
        }
        var y = padding
        if let stale = content.staleNotice {
            canvas.text(stale, x: x, y: y + 12, size: 11, weight: .semibold, fill: palette.warning, maxWidth: width)
            y += 16
        }
        dot(timer.color, on: &canvas, x: x + 5, y: y + 9)
        canvas.text(
            timer.name, x: x + 15, y: y + 14, size: 15, weight: .semibold, fill: palette.primary, maxWidth: width - 15)
        y += 20
        canvas.text(timer.elapsed, x: x, y: y + 28, size: 30, weight: .bold, fill: palette.primary)
        y += 34
        if let comment = timer.comment {
            canvas.text(comment, x: x, y: y + 13, size: 13, fill: palette.secondary, maxWidth: width)
        }
        let buttonHeight = 28
        if content.timers.moreCount > 0 {
            canvas.text(
                WidgetWording.more(content.timers.moreCount), x: x, y: bottom - buttonHeight - 8, size: 13,
                weight: .semibold, fill: palette.secondary)
        }
        stopButton(
            WidgetWording.stop, on: &canvas, x: x, y: bottom - buttonHeight, width: width, height: buttonHeight,
            palette: palette)
    }

    /// The "Today" caption in 13-point semibold gray, or the stale text in 11-point semibold orange
    /// (11 points keep it whole in the small widget's 138 points even in a wide font).
    static func caption(_ content: WidgetContent, on canvas: inout SVGCanvas, x: Int, y: Int, maxWidth: Int) {
        let palette = SVGPalette.light
        if let stale = content.staleNotice {
            canvas.text(stale, x: x, y: y, size: 11, weight: .semibold, fill: palette.warning, maxWidth: maxWidth)
        } else {
            canvas.text(
                content.caption, x: x, y: y, size: 13, weight: .semibold, fill: palette.secondary, maxWidth: maxWidth)
        }
    }

    /// The medium widget (364 × 170): the small widget's content on the left half, the quick-start
    /// buttons stacked on the right half.
    static func medium(_ content: WidgetContent, on canvas: inout SVGCanvas) {
        let column = (canvas.width - 3 * padding) / 2
        homeColumn(content, on: &canvas, x: padding, width: column)
        let x = 2 * padding + column
        for (index, button) in content.quickStart.enumerated() {
            startButton(button, on: &canvas, x: x, y: padding + index * 36, width: column, height: 28)
        }
    }

    /// The large widget (364 × 382).
    ///
    /// From the top: the caption ("Today" or the stale text) with today's total on the right; up to three
    /// timer rows (dot, name, comment, elapsed time, Stop) or "No timer running"; "+N more" and Stop All
    /// when two or more run; "Time by Tag" with today's record count and four rows of today's time by tag
    /// (or "No records"); at the bottom the quick-start buttons, two by two.
    static func large(_ content: WidgetContent, on canvas: inout SVGCanvas) {
        let palette = SVGPalette.light
        let (left, right) = (padding, canvas.width - padding)
        let width = right - left
        caption(content, on: &canvas, x: left, y: padding + 14, maxWidth: width - 90)
        canvas.text(
            content.todayTotal, x: right, y: padding + 18, size: 22, weight: .bold, fill: palette.primary,
            anchor: .end)
        var y = padding + 30

        if content.timers.isEmpty {
            canvas.text(WidgetWording.noTimerRunning, x: left, y: y + 20, size: 15, fill: palette.secondary)
            y += 34
        }
        for timer in content.timers.shown {
            timerRow(timer, time: timer.elapsed, on: &canvas, y: y, left: left, right: right, palette: palette)
            y += 34
        }
        if content.timers.moreCount > 0 || content.showsStopAll {
            footer(content, on: &canvas, y: y, left: left, right: right, palette: palette)
            y += 28
        }

        if let summary = content.summary {
            y += 8
            canvas.text(summary.title, x: left, y: y + 14, size: 13, weight: .semibold, fill: palette.secondary)
            canvas.text(content.todayRecords, x: right, y: y + 14, size: 13, fill: palette.secondary, anchor: .end)
            y += 22
            summaryRows(summary, on: &canvas, y: y, pitch: 22, left: left, right: right)
        }

        let gap = 8
        let buttonWidth = (width - gap) / 2
        let rows = (content.quickStart.count + 1) / 2
        for (index, button) in content.quickStart.enumerated() {
            let row = index / 2
            let top = canvas.height - padding - (rows - row) * 28 - (rows - row - 1) * gap
            startButton(
                button, on: &canvas, x: left + (index % 2) * (buttonWidth + gap), y: top, width: buttonWidth,
                height: 28)
        }
    }

    /// One timer row, 34 points high from `y`: dot, name, comment below it, `time` and a Stop button on
    /// the right. The large widget and the Live Activity share it.
    static func timerRow(
        _ timer: WidgetContent.Timer, time: String, on canvas: inout SVGCanvas, y: Int, left: Int, right: Int,
        palette: SVGPalette
    ) {
        let buttonWidth = 64
        let timeRight = right - buttonWidth - 10
        let timeWidth = SVGTextMetrics.width(time, size: 17, weight: .semibold)
        let textRoom = timeRight - timeWidth - 10 - (left + 14)
        let nameBaseline = timer.comment == nil ? y + 21 : y + 16
        dot(timer.color, on: &canvas, x: left + 5, y: nameBaseline - 5)
        canvas.text(
            timer.name, x: left + 14, y: nameBaseline, size: 15, weight: .semibold, fill: palette.primary,
            maxWidth: textRoom)
        if let comment = timer.comment {
            canvas.text(comment, x: left + 14, y: y + 31, size: 12, fill: palette.secondary, maxWidth: textRoom)
        }
        canvas.text(time, x: timeRight, y: y + 23, size: 17, weight: .semibold, fill: palette.primary, anchor: .end)
        stopButton(
            WidgetWording.stop, on: &canvas, x: right - buttonWidth, y: y + 4, width: buttonWidth, height: 26,
            palette: palette)
    }

    /// "+N more" on the left and Stop All on the right, 28 points high from `y`.
    static func footer(
        _ content: WidgetContent, on canvas: inout SVGCanvas, y: Int, left: Int, right: Int, palette: SVGPalette
    ) {
        if content.timers.moreCount > 0 {
            canvas.text(
                WidgetWording.more(content.timers.moreCount), x: left, y: y + 19, size: 13, weight: .semibold,
                fill: palette.secondary)
        }
        if content.showsStopAll {
            let width = 92
            stopButton(
                WidgetWording.stopAll, on: &canvas, x: right - width, y: y + 1, width: width, height: 26,
                palette: palette)
        }
    }

    /// Summary rows `pitch` points apart from `y` (dot, name, compact time on the right), or "No records".
    static func summaryRows(
        _ summary: WidgetContent.Summary, on canvas: inout SVGCanvas, y: Int, pitch: Int, left: Int, right: Int
    ) {
        let palette = SVGPalette.light
        guard !summary.rows.isEmpty else {
            canvas.text(WidgetWording.noRecords, x: left, y: y + pitch / 2 + 5, size: 14, fill: palette.secondary)
            return
        }
        for (index, row) in summary.rows.enumerated() {
            let middle = y + index * pitch + pitch / 2
            let timeWidth = SVGTextMetrics.width(row.time, size: 14, weight: .semibold)
            dot(row.color, on: &canvas, x: left + 5, y: middle)
            canvas.text(
                row.name, x: left + 16, y: middle + 5, size: 14, fill: palette.primary,
                maxWidth: right - timeWidth - 12 - (left + 16))
            canvas.text(
                row.time, x: right, y: middle + 5, size: 14, weight: .semibold, fill: palette.primary, anchor: .end)
        }
    }
}
