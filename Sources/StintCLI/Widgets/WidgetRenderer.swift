import StintCore

/// Renders what a widget family shows at one moment: the reference's home screen, lock screen and Time
/// by Tag widgets and its Live Activity, as boxed text or as an SVG picture.
///
/// Pure: no clock, no files, no environment. The moment is the timeline entry's date, so a caller
/// renders "the widget at T" by picking the entry in effect at T (``WidgetTimeline/entry(at:)``) from
/// the timeline the widget would have been given for the snapshot:
///
/// ```swift
/// let timeline = WidgetTimelineBuilder.timeline(for: snapshot, now: publishedAt, calendar: calendar)
/// if let entry = timeline.entry(at: t) {
///     print(WidgetRenderer.render(.systemSmall, entry: entry, calendar: calendar, format: .text), terminator: "")
/// }
/// ```
enum WidgetRenderer {
    /// `family` at `entry`, drawn in `format`.
    ///
    /// - Parameters:
    ///   - family: the widget look (see ``WidgetFamily`` for the names and sizes).
    ///   - entry: the timeline entry to show; its date is the moment shown, its data the snapshot.
    ///   - calendar: the log's calendar, for today's and the period's time by tag.
    ///   - period: the Time by Tag widgets' period; the other families ignore it. This Week by default,
    ///     as in the reference.
    ///   - format: boxed text or SVG.
    /// - Returns: the text picture or the SVG document, ending with a newline.
    static func render(
        _ family: WidgetFamily, entry: WidgetTimelineEntry, calendar: LogCalendar, period: WidgetPeriod = .thisWeek,
        format: WidgetRenderFormat
    ) -> String {
        render(WidgetContent(family: family, entry: entry, calendar: calendar, period: period), format: format)
    }

    /// Already decided `content`, drawn in `format`.
    static func render(_ content: WidgetContent, format: WidgetRenderFormat) -> String {
        switch format {
        case .text: return TextWidgetRenderer.render(content)
        case .svg: return SVGWidgetRenderer.render(content)
        }
    }
}
