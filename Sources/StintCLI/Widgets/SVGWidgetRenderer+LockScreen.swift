extension SVGWidgetRenderer {
    /// The circular lock screen widget (76 × 76): a gauge ring filled with the minutes of the first
    /// timer's current hour, a stopwatch, its `H:MM` and "+N" for the others; with none running, an empty
    /// ring, "Today" and today's total.
    static func circular(_ content: WidgetContent, on canvas: inout SVGCanvas) {
        let palette = SVGPalette.dark
        let center = canvas.width / 2
        let radius = center - 6
        canvas.ring(centerX: center, centerY: center, radius: radius, stroke: palette.track, lineWidth: 4)
        guard let timer = content.timers.shown.first else {
            canvas.text(
                WidgetWording.today, x: center, y: center - 8, size: 10, weight: .semibold, fill: palette.secondary,
                anchor: .middle)
            canvas.text(
                content.todayTotal, x: center, y: center + 10, size: fontSize(for: content.todayTotal), weight: .bold,
                fill: palette.primary, anchor: .middle)
            return
        }
        let minutes = timer.elapsedMilliseconds / 60_000 % 60
        if minutes > 0 {
            canvas.ring(
                centerX: center, centerY: center, radius: radius, stroke: palette.primary, lineWidth: 4,
                dash: 2 * Double.pi * Double(radius) * Double(minutes) / 60)
        }
        stopwatch(on: &canvas, x: center, y: center - 17, radius: 5, color: palette.secondary)
        canvas.text(
            timer.elapsed, x: center, y: center + 8, size: fontSize(for: timer.elapsed), weight: .bold,
            fill: palette.primary, anchor: .middle)
        if content.timers.moreCount > 0 {
            canvas.text(
                "+\(content.timers.moreCount)", x: center, y: center + 22, size: 11, weight: .semibold,
                fill: palette.secondary, anchor: .middle)
        }
    }

    /// 17 points for `H:MM` and `HH:MM`, smaller for longer times so they stay inside the ring.
    private static func fontSize(for time: String) -> Int {
        time.count <= 5 ? 17 : 14
    }

    /// The rectangular lock screen widget (172 × 76): a line per timer (name, `H:MM` on the right) and
    /// "+N more" on the last of its three lines; with none running, "Today" and today's total.
    static func rectangular(_ content: WidgetContent, on canvas: inout SVGCanvas) {
        let palette = SVGPalette.dark
        let (left, right) = (10, canvas.width - 10)
        guard !content.timers.isEmpty else {
            canvas.text(WidgetWording.today, x: left, y: 24, size: 13, weight: .semibold, fill: palette.secondary)
            canvas.text(content.todayTotal, x: left, y: 58, size: 28, weight: .bold, fill: palette.primary)
            return
        }
        for (index, timer) in content.timers.shown.enumerated() {
            let baseline = 22 + index * 21
            let timeWidth = SVGTextMetrics.width(timer.elapsed, size: 15, weight: .semibold)
            canvas.text(
                timer.name, x: left, y: baseline, size: 15, weight: .semibold, fill: palette.primary,
                maxWidth: right - timeWidth - 8 - left)
            canvas.text(
                timer.elapsed, x: right, y: baseline, size: 15, weight: .semibold, fill: palette.primary, anchor: .end)
        }
        if content.timers.moreCount > 0 {
            canvas.text(
                WidgetWording.more(content.timers.moreCount), x: left, y: 22 + content.timers.shown.count * 21,
                size: 13, weight: .semibold, fill: palette.secondary)
        }
    }

    /// The inline lock screen widget (234 × 24): a stopwatch and "Work 1:05 +2", the name giving way;
    /// with none running, "Today 2:15".
    static func inline(_ content: WidgetContent, on canvas: inout SVGCanvas) {
        let palette = SVGPalette.dark
        let size = 14
        guard let timer = content.timers.shown.first else {
            canvas.text(
                WidgetWording.today + " " + content.todayTotal, x: 10, y: 17, size: size, weight: .semibold,
                fill: palette.primary, maxWidth: canvas.width - 20)
            return
        }
        stopwatch(on: &canvas, x: 16, y: 13, radius: 6, color: palette.primary)
        var suffix = " " + timer.elapsed
        if content.timers.moreCount > 0 { suffix += " +\(content.timers.moreCount)" }
        let left = 28
        let room = canvas.width - 10 - left - SVGTextMetrics.width(suffix, size: size, weight: .semibold)
        let name = SVGTextMetrics.truncated(timer.name, toFit: room, size: size, weight: .semibold)
        canvas.text(name + suffix, x: left, y: 17, size: size, weight: .semibold, fill: palette.primary)
    }
}
