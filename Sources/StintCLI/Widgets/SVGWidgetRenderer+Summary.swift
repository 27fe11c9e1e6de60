extension SVGWidgetRenderer {
    /// The Time by Tag widgets (364 × 170 with 4 rows, 364 × 382 with 10): the period title (or the
    /// stale text) with the period's total on the right, then one row per tag (dot, name, compact time),
    /// or "No records" in the middle of the card.
    static func summary(_ content: WidgetContent, on canvas: inout SVGCanvas) {
        guard let summary = content.summary else { return }
        let palette = SVGPalette.light
        let (left, right) = (padding, canvas.width - padding)
        if content.staleNotice != nil {
            canvas.text(
                content.caption, x: left, y: padding + 18, size: 13, weight: .semibold, fill: palette.warning,
                maxWidth: right - left - 100)
        } else {
            canvas.text(
                content.caption, x: left, y: padding + 18, size: 15, weight: .semibold, fill: palette.primary,
                maxWidth: right - left - 100)
        }
        canvas.text(
            summary.total, x: right, y: padding + 19, size: 22, weight: .bold, fill: palette.primary, anchor: .end)
        let top = padding + 32
        guard !summary.rows.isEmpty else {
            canvas.text(
                WidgetWording.noRecords, x: canvas.width / 2, y: (top + canvas.height - padding) / 2 + 5, size: 15,
                fill: palette.secondary, anchor: .middle)
            return
        }
        let limit = content.family.summaryRowLimit ?? summary.rows.count
        let pitch = min(30, (canvas.height - padding - top) / limit)
        summaryRows(summary, on: &canvas, y: top, pitch: pitch, left: left, right: right)
    }
}
