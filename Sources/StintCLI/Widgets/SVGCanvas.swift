/// Builds a standalone SVG 1.1 document from a few shapes and text runs.
///
/// Output is deterministic: coordinates are whole points or written with at most one decimal by
/// ``number(_:)``, attributes come in a fixed order, every text and attribute value is XML-escaped, and
/// nothing refers outside the document (no fonts, images or stylesheets).
struct SVGCanvas {
    /// How a document's frame is drawn and clipped.
    enum Frame {
        /// A rounded rectangle over the whole canvas, optionally with a hairline outline.
        case roundedRectangle(radius: Int, fill: String, stroke: String?)
        /// A rounded rectangle with a dashed outline and no fill: a placeholder for something not shown.
        case dashedOutline(radius: Int, stroke: String)
        /// A circle filling the (square) canvas.
        case circle(fill: String)
    }

    /// The font stack of every text run.
    static let fontFamily = "-apple-system, system-ui, sans-serif"

    /// Where text is anchored horizontally.
    enum Anchor: String {
        case start
        case middle
        case end
    }

    let width: Int
    let height: Int
    private(set) var elements: [String] = []

    init(width: Int, height: Int) {
        self.width = width
        self.height = height
    }

    /// A rectangle; `radius` rounds its corners, `opacity` applies to its fill.
    mutating func rectangle(
        x: Int, y: Int, width: Int, height: Int, radius: Int = 0, fill: String, opacity: String? = nil
    ) {
        var element = #"<rect x="\#(x)" y="\#(y)" width="\#(width)" height="\#(height)""#
        if radius > 0 { element += #" rx="\#(radius)""# }
        element += #" fill="\#(SVGCanvas.escaped(fill))""#
        if let opacity { element += #" fill-opacity="\#(opacity)""# }
        elements.append(element + "/>")
    }

    /// A filled circle.
    mutating func circle(centerX: Int, centerY: Int, radius: Int, fill: String) {
        elements.append(
            #"<circle cx="\#(centerX)" cy="\#(centerY)" r="\#(radius)" fill="\#(SVGCanvas.escaped(fill))"/>"#)
    }

    /// A circle outline; with `dash`, only the first `dash` of its circumference is drawn, starting at
    /// the top and running clockwise.
    mutating func ring(
        centerX: Int, centerY: Int, radius: Int, stroke: String, lineWidth: Int, opacity: String? = nil,
        dash: Double? = nil
    ) {
        var element =
            #"<circle cx="\#(centerX)" cy="\#(centerY)" r="\#(radius)" fill="none""#
            + #" stroke="\#(SVGCanvas.escaped(stroke))" stroke-width="\#(lineWidth)""#
        if let opacity { element += #" stroke-opacity="\#(opacity)""# }
        if let dash {
            let circumference = 2 * Double.pi * Double(radius)
            element +=
                #" stroke-linecap="round" stroke-dasharray="\#(SVGCanvas.number(dash)) \#(SVGCanvas.number(circumference))""#
                + #" transform="rotate(-90 \#(centerX) \#(centerY))""#
        }
        elements.append(element + "/>")
    }

    /// A filled path; `data` is built from numbers only.
    mutating func path(_ data: String, fill: String) {
        elements.append(#"<path d="\#(SVGCanvas.escaped(data))" fill="\#(SVGCanvas.escaped(fill))"/>"#)
    }

    /// A run of text with its baseline at `y`, shortened with "…" to an estimated `maxWidth` points
    /// when given (see ``SVGTextMetrics``).
    mutating func text(
        _ text: String, x: Int, y: Int, size: Int, weight: SVGTextMetrics.Weight = .regular, fill: String,
        anchor: Anchor = .start, maxWidth: Int? = nil
    ) {
        let shown =
            maxWidth.map { SVGTextMetrics.truncated(text, toFit: $0, size: size, weight: weight) }
            ?? WidgetText.singleLine(text)
        guard !shown.isEmpty else { return }
        var element = #"<text x="\#(x)" y="\#(y)" font-size="\#(size)""#
        if weight != .regular { element += #" font-weight="\#(weight.rawValue)""# }
        element += #" fill="\#(SVGCanvas.escaped(fill))""#
        if anchor != .start { element += #" text-anchor="\#(anchor.rawValue)""# }
        elements.append(element + ">" + SVGCanvas.escaped(shown) + "</text>")
    }

    /// The whole document: the XML declaration, the `svg` element with its size, a title, the frame
    /// and the elements clipped to it; ends with a newline.
    func document(title: String, frame: Frame) -> String {
        let (clip, background) = frameElements(frame)
        var lines = [
            #"<?xml version="1.0" encoding="UTF-8"?>"#,
            #"<svg xmlns="http://www.w3.org/2000/svg" version="1.1" width="\#(width)" height="\#(height)""#
                + #" viewBox="0 0 \#(width) \#(height)" font-family="\#(SVGCanvas.escaped(SVGCanvas.fontFamily))">"#,
            "<title>\(SVGCanvas.escaped(title))</title>",
            #"<defs><clipPath id="stint-widget-frame">\#(clip)</clipPath></defs>"#,
            background,
            #"<g clip-path="url(#stint-widget-frame)">"#,
        ]
        lines += elements
        lines += ["</g>", "</svg>"]
        return lines.joined(separator: "\n") + "\n"
    }

    /// The clip shape and the drawn background of `frame`.
    private func frameElements(_ frame: Frame) -> (clip: String, background: String) {
        switch frame {
        case .roundedRectangle(let radius, let fill, let stroke):
            let clip = #"<rect width="\#(width)" height="\#(height)" rx="\#(radius)"/>"#
            guard let stroke else {
                return (clip, #"<rect width="\#(width)" height="\#(height)" rx="\#(radius)" fill="\#(fill)"/>"#)
            }
            // A hairline drawn inside the frame: half a point in from each edge.
            let background =
                #"<rect x="0.5" y="0.5" width="\#(SVGCanvas.number(Double(width) - 1))""#
                + #" height="\#(SVGCanvas.number(Double(height) - 1))" rx="\#(SVGCanvas.number(Double(radius) - 0.5))""#
                + #" fill="\#(fill)" stroke="\#(stroke)"/>"#
            return (clip, background)
        case .dashedOutline(let radius, let stroke):
            let clip = #"<rect width="\#(width)" height="\#(height)" rx="\#(radius)"/>"#
            let background =
                #"<rect x="1" y="1" width="\#(width - 2)" height="\#(height - 2)" rx="\#(radius - 1)""#
                + #" fill="none" stroke="\#(stroke)" stroke-width="2" stroke-dasharray="6 4"/>"#
            return (clip, background)
        case .circle(let fill):
            let center = width / 2
            return (
                #"<circle cx="\#(center)" cy="\#(center)" r="\#(center)"/>"#,
                #"<circle cx="\#(center)" cy="\#(center)" r="\#(center)" fill="\#(fill)"/>"#
            )
        }
    }

    /// `value` rounded to one decimal, without a trailing `.0`: `207.3`, `12`, `-0.5`.
    static func number(_ value: Double) -> String {
        let tenths = Int64((value * 10).rounded())
        let sign = tenths < 0 ? "-" : ""
        let magnitude = tenths.magnitude
        let fraction = magnitude % 10
        return sign + "\(magnitude / 10)" + (fraction == 0 ? "" : ".\(fraction)")
    }

    /// `text` with `&`, `<`, `>`, `"` and `'` replaced by entities, made single-line, and without the
    /// characters XML 1.0 does not allow (noncharacters U+FFFE and U+FFFF), so it is safe in content and
    /// in attribute values (of an SVG, and of the HTML page of `stint view`).
    static func escaped(_ text: String) -> String {
        var result = ""
        for scalar in WidgetText.singleLine(text).unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&apos;"
            case "\u{FFFE}", "\u{FFFF}": continue
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
