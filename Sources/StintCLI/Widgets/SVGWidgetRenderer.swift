/// Draws widget content as a standalone SVG picture at the real widget's size in points.
///
/// Home and Time by Tag widgets are white cards with 22-point corners and a hairline outline; lock
/// screen accessories and the Live Activity are dark. Tag colors come from the snapshot (checked by
/// ``WidgetColor``). Every picture clips to its frame, so no text can spill out of it. The layouts are
/// described on each family's function; their content rules on ``WidgetContent``.
enum SVGWidgetRenderer {
    /// The width and height in points of a fixed-size family; nil for the Live Activity on the lock screen and
    /// in the expanded Dynamic Island, whose height follows its rows.
    static func size(of family: WidgetFamily) -> (width: Int, height: Int)? {
        switch family {
        case .systemSmall: return (170, 170)
        case .systemMedium, .summaryMedium: return (364, 170)
        case .systemLarge, .summaryLarge: return (364, 382)
        case .accessoryCircular: return (76, 76)
        case .accessoryRectangular: return (172, 76)
        case .accessoryInline: return (234, 24)
        case .dynamicIslandCompact: return (250, 36)
        case .liveActivity, .dynamicIslandExpanded: return nil
        }
    }

    /// The home widgets' margin.
    static let padding = 16
    /// The home and Time by Tag widgets' corner radius.
    static let cornerRadius = 22

    /// `content` as an SVG document, ending with a newline.
    static func render(_ content: WidgetContent) -> String {
        let title = "Stint widget: \(content.family.name)"
        guard let size = size(of: content.family) else {
            return content.family == .dynamicIslandExpanded
                ? dynamicIslandExpanded(content, title: title) : liveActivity(content, title: title)
        }
        var canvas = SVGCanvas(width: size.width, height: size.height)
        let light = SVGCanvas.Frame.roundedRectangle(
            radius: cornerRadius, fill: SVGPalette.light.background, stroke: SVGPalette.light.outline)
        switch content.family {
        case .systemSmall:
            homeColumn(content, on: &canvas, x: padding, width: size.width - 2 * padding)
            return canvas.document(title: title, frame: light)
        case .systemMedium:
            medium(content, on: &canvas)
            return canvas.document(title: title, frame: light)
        case .systemLarge:
            large(content, on: &canvas)
            return canvas.document(title: title, frame: light)
        case .summaryMedium, .summaryLarge:
            summary(content, on: &canvas)
            return canvas.document(title: title, frame: light)
        case .accessoryCircular:
            circular(content, on: &canvas)
            return canvas.document(title: title, frame: .circle(fill: SVGPalette.dark.background))
        case .accessoryRectangular:
            rectangular(content, on: &canvas)
            return canvas.document(
                title: title, frame: .roundedRectangle(radius: 14, fill: SVGPalette.dark.background, stroke: nil))
        case .accessoryInline:
            inline(content, on: &canvas)
            return canvas.document(
                title: title, frame: .roundedRectangle(radius: 12, fill: SVGPalette.dark.background, stroke: nil))
        case .dynamicIslandCompact:
            return dynamicIslandCompact(content, on: &canvas, title: title)
        case .liveActivity:
            return liveActivity(content, title: title)
        case .dynamicIslandExpanded:
            return dynamicIslandExpanded(content, title: title)
        }
    }
}
