/// How `stint widget` draws a widget: a boxed plain-text picture or a standalone SVG document.
enum WidgetRenderFormat: String, CaseIterable, Hashable, Sendable {
    /// A fixed-size box of Unicode box-drawing characters with plain text inside; no color, no escapes.
    case text
    /// A standalone SVG 1.1 document with the widget's size in points, for a browser or an image viewer.
    case svg

    /// The name `--format` takes: `text` or `svg`.
    var name: String { rawValue }
}
