extension SVGWidgetRenderer {
    /// A capsule button with a stop square and `label` centered in it.
    static func stopButton(
        _ label: String, on canvas: inout SVGCanvas, x: Int, y: Int, width: Int, height: Int, palette: SVGPalette
    ) {
        canvas.rectangle(
            x: x, y: y, width: width, height: height, radius: height / 2, fill: palette.stopFill,
            opacity: palette.tintOpacity)
        let size = 13
        let icon = 9
        let gap = 5
        let labelWidth = SVGTextMetrics.width(label, size: size, weight: .semibold)
        let start = x + (width - (icon + gap + labelWidth)) / 2
        canvas.rectangle(
            x: start, y: y + (height - icon) / 2, width: icon, height: icon, radius: 2, fill: palette.stopLabel)
        canvas.text(
            label, x: start + icon + gap, y: y + height / 2 + 5, size: size, weight: .semibold, fill: palette.stopLabel)
    }

    /// A quick-start capsule: the tag's color dot, its name and a play triangle, tinted with its color.
    static func startButton(
        _ button: WidgetContent.QuickStart, on canvas: inout SVGCanvas, x: Int, y: Int, width: Int, height: Int
    ) {
        let color = button.color.hex
        canvas.rectangle(
            x: x, y: y, width: width, height: height, radius: height / 2, fill: color,
            opacity: SVGPalette.light.tintOpacity)
        canvas.circle(centerX: x + 14, centerY: y + height / 2, radius: 5, fill: color)
        canvas.text(
            button.name, x: x + 25, y: y + height / 2 + 5, size: 13, weight: .semibold, fill: SVGPalette.light.primary,
            maxWidth: width - 25 - 26)
        let (tipX, midY) = (x + width - 11, y + height / 2)
        canvas.path("M\(tipX - 8) \(midY - 5)L\(tipX) \(midY)L\(tipX - 8) \(midY + 5)Z", fill: color)
    }

    /// A stopwatch outline centered on (`x`, `y`) with radius `radius`: a ring, a crown and a hand.
    static func stopwatch(on canvas: inout SVGCanvas, x: Int, y: Int, radius: Int, color: String) {
        canvas.ring(centerX: x, centerY: y, radius: radius, stroke: color, lineWidth: 2)
        canvas.rectangle(x: x - 2, y: y - radius - 4, width: 4, height: 3, radius: 1, fill: color)
        canvas.rectangle(x: x - 1, y: y - radius + 3, width: 2, height: radius - 2, radius: 1, fill: color)
    }

    /// A tag color dot.
    static func dot(_ color: WidgetColor, on canvas: inout SVGCanvas, x: Int, y: Int, radius: Int = 5) {
        canvas.circle(centerX: x, centerY: y, radius: radius, fill: color.hex)
    }
}
