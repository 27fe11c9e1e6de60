/// The colors of the SVG pictures: a light home screen style for the home and Time by Tag widgets, a
/// dark lock screen style for the accessories and the Live Activity.
///
/// Lock screen widgets are drawn by iOS in a single tint on the wallpaper; the pictures put them on a
/// dark backdrop so white text stays readable in a browser.
struct SVGPalette {
    var background: String
    /// The hairline around a light widget, so its edge shows on a white page.
    var outline: String?
    var primary: String
    var secondary: String
    /// The stale caption.
    var warning: String
    /// A stop button's fill (drawn at ``tintOpacity``) and its label.
    var stopFill: String
    var stopLabel: String
    /// The fill opacity of stop and quick-start buttons.
    var tintOpacity: String
    /// The track of the circular gauge.
    var track: String

    static let light = SVGPalette(
        background: "#FFFFFF", outline: "#D1D1D6", primary: "#1C1C1E", secondary: "#8A8A8E", warning: "#C93400",
        stopFill: "#FF3B30", stopLabel: "#D70015", tintOpacity: "0.2", track: "#E5E5EA")

    static let dark = SVGPalette(
        background: "#1C1C1E", outline: nil, primary: "#FFFFFF", secondary: "#AEAEB2", warning: "#FF9F0A",
        stopFill: "#FF453A", stopLabel: "#FF6961", tintOpacity: "0.3", track: "#48484A")
}
