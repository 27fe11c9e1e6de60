extension SVGWidgetRenderer {
    /// The Live Activity on the lock screen, 364 points wide and as high as its rows (60 to 160 points,
    /// iOS's limit).
    ///
    /// Up to three timer rows (dot, tag name or "Timer", comment, the ticking time frozen at the entry's
    /// date as `M:SS` or `H:MM:SS`, a Stop button), then "+N more" and Stop All when two or more run.
    /// With no timer running there is no activity: a dashed placeholder says so (or that iOS ended it).
    static func liveActivity(_ content: WidgetContent, title: String) -> String {
        let palette = SVGPalette.dark
        let width = 364
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
        return canvas.document(
            title: title, frame: .roundedRectangle(radius: cornerRadius, fill: palette.background, stroke: nil))
    }
}
