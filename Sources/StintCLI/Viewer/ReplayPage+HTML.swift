import StintCore

extension ReplayPage {
    /// The events of a point the page lists; the others are counted.
    static let eventsShown = 200

    /// The page: one HTML document, its style, script and data inline, nothing fetched (its content security
    /// policy forbids any request).
    func html(calendar: LogCalendar) -> String {
        // The data is one JSON block: `</` inside its strings (a tag named `</script>`) is written `<\/`.
        let data = String(decoding: json(calendar: calendar).encoded(), as: UTF8.self)
            .replacingOccurrences(of: "</", with: "<\\/")
        let summary =
            "\(points.count) of \(pointsInRange) points (instants with batches), \(batchesInRange) batches; "
            + "times in \(timeZone)"
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>stint view: \(SVGCanvas.escaped(name))</title>
            <style>
            \(ReplayPageAssets.style)
            </style>
            </head>
            <body>
            <header>
            <h1>\(SVGCanvas.escaped(name))</h1>
            <p>\(SVGCanvas.escaped(summary)). Each point shows what an app following the reference design had on screen at its instant (<code>stint widget --at</code>) and what its batches did (<code>stint replay</code>); a dot marks a snapshot write.</p>
            <p id="warning"\(warning == nil ? " hidden" : "")>\(SVGCanvas.escaped(warning.map { "The walk stopped at damage: \($0)" } ?? ""))</p>
            </header>
            <section id="controls" aria-label="Points">
            <span class="buttons"><button type="button" id="first" title="First (Home)">First</button><button type="button" id="previous" title="Previous (Left arrow)">Previous</button><button type="button" id="play">Play</button><button type="button" id="next" title="Next (Right arrow)">Next</button><button type="button" id="last" title="Last (End)">Last</button></span>
            <div id="track"><input type="range" id="scrubber" min="0" max="0" step="1" value="0" aria-label="Point"><div id="markers"></div><div id="lanes"></div></div>
            <span id="position"></span>
            </section>
            <main>
            <section id="point">
            <h2 id="point-title"></h2>
            <p class="facts">at <code id="point-at"></code>, seq <code id="point-seqs"></code><span id="point-devices"></span>, <code id="point-batches"></code> batch(es) since the point before; snapshot SHA-256 <code id="point-fingerprint"></code></p>
            <h3>On screen</h3>
            <p class="facts" id="modes"><label><input type="radio" name="mode" id="as-published" value="widgets" checked> as published (<code>stint widget --at</code>: the snapshot file the app had written)</label> <label><input type="radio" name="mode" id="as-computed" value="computed"> as computed (<code>--as-computed</code>: a publish at the instant)</label></p>
            <div id="widgets"></div>
            <section id="conflicts-section" hidden><h3>Conflicts the merge resolved (<code>stint conflicts</code>)</h3><ul id="conflicts"></ul></section>
            <h3>What they changed</h3>
            <table><thead><tr><th>what</th><th>before</th><th>after</th></tr></thead><tbody id="changes-body"></tbody></table>
            <p class="facts" id="no-changes" hidden>Nothing that the page follows (records, running timers, today's totals) changed.</p>
            <h3>The batches (stint replay)</h3>
            <pre id="rows"></pre>
            <h3>Their events</h3>
            <table><thead><tr><th>seq</th><th>device</th><th>type</th><th>what it did</th><th title="genesis for a log's first line; else ✓ and the first digits of the hash of the line before, which the event's prev names: every event shown was checked as the log was read">chain</th></tr></thead><tbody id="events-body"></tbody></table>
            <p class="facts" id="more-events"></p>
            </section>
            <nav aria-label="Every point"><h3>Points</h3><ol id="list"></ol></nav>
            </main>
            <script type="application/json" id="stint-data">\(data)</script>
            <script>
            \(ReplayPageAssets.script)
            </script>
            </body>
            </html>

            """
    }

    /// The data the script shows: the slots' names, each SVG once, and the points.
    func json(calendar: LogCalendar) -> JSON {
        let format = TextFormat(calendar: calendar)
        return .object([
            "name": .string(name), "timeZone": .string(timeZone), "lanes": .array(lanes.map(JSON.string)),
            "slots": .array(Self.slots.map { .string($0.label) }),
            "svgs": .array(svgs.map(JSON.string)),
            "points": .array(
                points.map { point in
                    .object([
                        "at": .string(point.at.iso8601), "local": .string(format.dateTime(point.at)),
                        "seqs": .string(
                            point.firstSeq == point.lastSeq ? "\(point.firstSeq)" : "\(point.firstSeq)–\(point.lastSeq)"
                        ),
                        "batches": .int(Int64(point.batches)), "wrote": .bool(point.wrote),
                        "fingerprint": .string(point.fingerprint),
                        "widgets": .array(point.widgets.map { $0.map { .int(Int64($0)) } ?? .null }),
                        "computed": .array(point.computed.map { $0.map { .int(Int64($0)) } ?? .null }),
                        "rows": .array(point.rows.map(JSON.string)),
                        "devices": .array(point.devices.map(JSON.string)),
                        "conflicts": .array(point.conflicts.map(JSON.string)),
                        "conflictsSince": .int(Int64(point.conflictsSince)),
                        "changes": .array(
                            point.changes.map { change in
                                .object([
                                    "what": .string(change.what), "before": .string(change.before),
                                    "after": .string(change.after),
                                ])
                            }),
                        "events": .array(
                            point.events.map { event in
                                .object([
                                    "seq": .int(event.seq), "device": event.device.map(JSON.string) ?? .null,
                                    "type": .string(event.type), "text": .string(event.text),
                                    "chain": .string(event.chain),
                                ])
                            }),
                        "moreEvents": .int(Int64(point.moreEvents)),
                    ])
                }),
        ])
    }
}
