extension SVGWidgetRenderer {
    /// The Dynamic Island's background: black, as the cutout it grows from.
    static let islandFill = "#000000"
    /// The width of the Live Activity on the lock screen and in the expanded Dynamic Island, whose height
    /// follows their rows (58 to 160 points).
    static func activityWidth(of family: WidgetFamily) -> Int {
        family == .dynamicIslandExpanded ? 371 : 364
    }

    /// The Live Activity on the lock screen, 364 points wide and as high as its rows (60 to 160 points,
    /// iOS's limit).
    ///
    /// Up to three timer rows (dot, tag name or "Timer", comment, the ticking time frozen at the entry's
    /// date as `M:SS` or `H:MM:SS`, a Stop button), then "+N more" and Stop All when two or more run.
    /// With no timer running there is no activity: a dashed placeholder says so (or that iOS ended it).
    static func liveActivity(_ content: WidgetContent, title: String) -> String {
        activityRows(content, title: title, width: activityWidth(of: .liveActivity)) { _ in
            .roundedRectangle(radius: cornerRadius, fill: SVGPalette.dark.background, stroke: nil)
        }
    }

    /// The expanded Dynamic Island (a long press on the island), 371 points wide: the lock screen's rows on
    /// the island's black, its corners as round as its height allows up to 44 points.
    static func dynamicIslandExpanded(_ content: WidgetContent, title: String) -> String {
        activityRows(content, title: title, width: activityWidth(of: .dynamicIslandExpanded)) { height in
            .roundedRectangle(radius: min(44, height / 2), fill: islandFill, stroke: nil)
        }
    }

    /// The compact Dynamic Island (250 × 36, a capsule): a stopwatch in the first timer's tag color on the
    /// leading side and its ticking time, in the same color, on the trailing side; the other timers are not
    /// shown there. With no timer running there is no activity: a dashed placeholder says so.
    static func dynamicIslandCompact(_ content: WidgetContent, on canvas: inout SVGCanvas, title: String) -> String {
        let (width, height) = (canvas.width, canvas.height)
        guard let timer = content.timers.shown.first else {
            canvas.text(
                content.caption, x: width / 2, y: height / 2 + 4, size: 11, fill: SVGPalette.light.secondary,
                anchor: .middle, maxWidth: width - 24)
            return canvas.document(title: title, frame: .dashedOutline(radius: height / 2, stroke: "#C7C7CC"))
        }
        let color = timer.color.hex
        stopwatch(on: &canvas, x: 24, y: height / 2 + 2, radius: 8, color: color)
        canvas.text(
            timer.clock, x: width - 20, y: height / 2 + 6, size: 16, weight: .semibold, fill: color, anchor: .end)
        return canvas.document(
            title: title, frame: .roundedRectangle(radius: height / 2, fill: islandFill, stroke: nil))
    }

    /// The Live Activity's rows at `width` points, in the frame `frame` gives for the height they take; the
    /// dashed placeholder when no timer runs.
    private static func activityRows(
        _ content: WidgetContent, title: String, width: Int, frame: (_ height: Int) -> SVGCanvas.Frame
    ) -> String {
        let palette = SVGPalette.dark
        let (margin, rowHeight, footerHeight) = (14, 34, 32)
        guard !content.timers.isEmpty else {
            var canvas = SVGCanvas(width: width, height: 58)
            canvas.text(
                content.caption, x: width / 2, y: 34, size: 14, fill: SVGPalette.light.secondary,
                anchor: .middle)
            return canvas.document(title: title, frame: .dashedOutline(radius: cornerRadius, stroke: "#C7C7CC"))
        }
        let hasFooter = content.timers.moreCount > 0 || content.showsStopAll
        let height = margin + content.timers.shown.count * rowHeight + (hasFooter ? footerHeight : 0) + 12
        var canvas = SVGCanvas(width: width, height: height)
        var y = margin
        for timer in content.timers.shown {
            timerRow(timer, time: timer.clock, on: &canvas, y: y, left: margin, right: width - margin, palette: palette)
            y += rowHeight
        }
        if hasFooter {
            footer(content, on: &canvas, y: y + 2, left: margin, right: width - margin, palette: palette)
        }
        return canvas.document(title: title, frame: frame(height))
    }
}
