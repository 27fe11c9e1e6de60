import StintCore
import StintEngine

extension ReplayPage {
    /// The part of the history a page shows: the instants at or after `since`, before `until` and at or before
    /// `through` (`--at`, or now: nothing after now has happened).
    struct Range {
        var since: Instant?
        var until: Instant?
        var through: Instant
    }

    /// A point as the walk meets it: what drawing it needs, cheap to keep until the point is drawn or dropped.
    struct Candidate {
        var point: Point
        /// How many batches, snapshot writes and resolved conflicts of the range came up to and including the
        /// point.
        var batchesSoFar: Int
        var writesSoFar: Int
        var conflictsSoFar = 0
        /// The snapshot computed at the point (`stint snapshot --at`), the one the file held, and the Live
        /// Activity shown.
        var snapshot: WidgetData
        var published: WidgetData?
        var liveActivity: (content: LiveActivityContent, startedAt: Instant)?
        /// The point's first events (``ReplayPage/eventsShown``), each with the tags before its batch: described
        /// only when the point is kept.
        var events: [(event: RecordedEvent, tags: [EntityID: Tag])] = []
        /// Before the point's first batch: the snapshot at the point's instant and the tags; and each record
        /// the batches name as it was before the first of them that names it, and as it is after the last.
        var before: WidgetData?
        var tagsBefore: [EntityID: Tag] = [:]
        var records: [(id: EntityID, before: RecordValue, after: RecordValue)] = []
        var tagsAfter: [EntityID: Tag] = [:]

        /// Takes in what one of the point's batches changed (`before`, as the replay noted it) and the state
        /// after it.
        mutating func addChanges(_ before: PublishReplay.Before?, after state: LogState?, first: Bool) {
            if first {
                self.before = before?.snapshot
                tagsBefore = before?.tags ?? [:]
            }
            for (id, record, deleted) in before?.records ?? [] where !records.contains(where: { $0.id == id }) {
                records.append((id, RecordValue(record, deleted: deleted), .none))
            }
            for index in records.indices {
                let id = records[index].id
                records[index].after = RecordValue(
                    state?.records[id], deleted: state?.deletedRecordIds.contains(id) ?? false)
            }
            tagsAfter = state?.tags ?? [:]
        }

        /// Takes in the device of one of the point's batches and what the space's rules resolved folding it.
        mutating func add(device: DeviceID?, conflicts: [Conflict]) {
            if let device {
                let short = String(device.description.prefix(8))
                if !point.devices.contains(short) { point.devices.append(short) }
            }
            point.conflicts += conflicts.map(\.line)
        }

        /// Takes in the events of one of the point's batches, recorded after `tags`.
        mutating func add(_ batch: [RecordedEvent], tags: [EntityID: Tag]) {
            let room = max(0, eventsShown - events.count)
            events += batch.prefix(room).map { ($0, tags) }
            point.moreEvents += max(0, batch.count - room)
        }
    }

    /// Walks `source`'s log from its first batch and keeps the points of `range`, at most `limit` of them.
    ///
    /// - Throws: ``CLIError`` for a log that cannot be read or events that do not fold.
    static func collect(
        _ source: LogSource, range: Range, limit: Int, calendar: LogCalendar, context: CommandContext
    ) throws(CLIError) -> ReplayPage {
        let format = TextFormat(calendar: calendar)
        let lines = ReplayLines(format: format, json: false)
        var sampler = Sampler(limit: limit)
        var current: Candidate?
        var published: WidgetData?
        var batches = 0
        var writes = 0
        var conflicts = 0
        let replay: PublishReplay
        do {
            replay = try PublishReplay(source: source, since: nil, options: context.engineOptions)
            replay.keepsBefore = true
            // The tags as they were before each batch, for its events' descriptions.
            var tags: [EntityID: Tag] = [:]
            while let step = try replay.next() {
                if step.at > range.through || range.until.map({ step.at >= $0 }) == true { break }
                if step.writesSnapshot { published = step.snapshot }
                defer { tags = replay.state?.tags ?? [:] }
                if let since = range.since, step.at < since { continue }
                batches += 1
                if step.writesSnapshot { writes += 1 }
                conflicts += step.conflicts.count
                if var point = current, point.point.at == step.at {
                    // Batches recorded at one instant are one point: `--at` reads them all.
                    point.point.lastSeq = step.batch.lastSeq
                    point.point.rows.append(lines.line(for: step))
                    point.add(step.batch.events, tags: tags)
                    point.addChanges(step.before, after: replay.state, first: false)
                    point.add(device: step.batch.events[0].device, conflicts: step.conflicts)
                    (point.batchesSoFar, point.writesSoFar, point.conflictsSoFar) = (batches, writes, conflicts)
                    (point.snapshot, point.published, point.liveActivity) =
                        (step.snapshot, published, replay.shownLiveActivity)
                    current = point
                    continue
                }
                if let done = current { sampler.offer(done) }
                var point = Candidate(
                    point: Point(
                        at: step.at, firstSeq: step.batch.firstSeq, lastSeq: step.batch.lastSeq,
                        rows: [lines.line(for: step)], events: [], moreEvents: 0, batches: 0, wrote: false,
                        changes: [], devices: [], conflicts: [], conflictsSince: 0, fingerprint: "", widgets: [],
                        computed: []),
                    batchesSoFar: batches, writesSoFar: writes, snapshot: step.snapshot, published: published,
                    liveActivity: replay.shownLiveActivity)
                point.add(step.batch.events, tags: tags)
                point.addChanges(step.before, after: replay.state, first: true)
                point.add(device: step.batch.events[0].device, conflicts: step.conflicts)
                point.conflictsSoFar = conflicts
                current = point
            }
        } catch {
            throw CLIError(error)
        }
        if let done = current { sampler.offer(done) }
        var page = ReplayPage(
            name: source.name, timeZone: calendar.timeZoneIdentifier, points: [], svgs: [],
            pointsInRange: sampler.offered,
            batchesInRange: batches, warning: replay.warning?.message)
        var svgIndex: [String: Int] = [:]
        var previous: Candidate?
        for candidate in sampler.keptWithLast {
            var point = candidate.point
            point.batches = candidate.batchesSoFar - (previous?.batchesSoFar ?? 0)
            point.wrote = candidate.writesSoFar > (previous?.writesSoFar ?? 0)
            point.conflictsSince = candidate.conflictsSoFar - (previous?.conflictsSoFar ?? 0)
            point.fingerprint = Fingerprint.sha256(Array(candidate.snapshot.json.prettyEncoded().utf8))
            point.events = candidate.events.map { event, tags in
                Event(
                    seq: event.seq, device: event.device.map { String($0.description.prefix(8)) }, type: event.type,
                    text: (try? DomainEvent(event)).map(EventSummary(format: format, tags: tags).describe)
                        ?? event.type,
                    chain: event.prev == RecordedEvent.genesisPrev ? "genesis" : "✓ " + event.prev.prefix(8))
            }
            point.changes = changes(candidate, format: format)
            for device in point.devices where !page.lanes.contains(device) { page.lanes.append(device) }
            func draw(_ shown: PublishedMoment, _ snapshot: WidgetData?) -> [Int?] {
                slots.map { (slot) -> Int? in
                    guard let snapshot,
                        let svg = WidgetVerb.draw(
                            slot.family, period: slot.period, format: .svg, shown: shown, published: snapshot,
                            at: point.at, calendar: calendar)
                    else { return nil }
                    if let index = svgIndex[svg] { return index }
                    svgIndex[svg] = page.svgs.count
                    page.svgs.append(svg)
                    return page.svgs.count - 1
                }
            }
            point.widgets = draw(
                PublishedMoment(snapshot: candidate.published, liveActivity: candidate.liveActivity, at: point.at),
                candidate.published)
            point.computed = draw(
                PublishedMoment(snapshot: candidate.snapshot, liveActivity: nil, at: point.at), candidate.snapshot)
            page.points.append(point)
            previous = candidate
        }
        return page
    }

    /// Keeps every `stride`-th point offered, at most `limit`: past it, every other kept point is dropped and the
    /// stride doubles. The last point offered is always kept.
    private struct Sampler {
        let limit: Int
        private(set) var kept: [Candidate] = []
        private(set) var offered = 0
        private var stride = 1
        private var lastDropped: Candidate?

        init(limit: Int) {
            self.limit = max(1, limit)
        }

        mutating func offer(_ candidate: Candidate) {
            defer { offered += 1 }
            guard offered % stride == 0 else {
                lastDropped = candidate
                return
            }
            lastDropped = nil
            kept.append(candidate)
            if kept.count > limit {
                // The kept points are offers 0, stride, 2 × stride …: those at even places stay.
                let odd = kept.count % 2 == 0
                kept = kept.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
                stride *= 2
                if odd { lastDropped = candidate }
            }
        }

        /// The kept points, the last one offered among them.
        var keptWithLast: [Candidate] {
            guard let lastDropped else { return kept }
            return (kept.count >= limit ? kept.dropLast() : kept[...]) + [lastDropped]
        }
    }
}
