import StintCore

/// The journal of a replica's read models (decision 0010 step 4, docs/read-models.md). Each save of a fold in
/// parts keeps the before-images of what it changes: the mark and frame it replaced, the rows of the records
/// it wrote, and the stacks and whole undo entries it wrote or dropped. When events of a device that was
/// offline sort before the models' mark, ``rewind(toBefore:)`` rolls back only the steps of saves since them,
/// and the fold goes on from the mark before them instead of a rebuild. The saves are kept in steps of
/// ``savesPerStep``, each with the frame before its first save and the first before-image of each row and
/// stack, and a rewind goes back to the start of a step; the journal keeps the newest ``journalSteps``
/// steps, and a rebuild starts it empty.
extension ReadModel {
    /// The journal's tables (part of ``replicaSchema``). A step's `after_hash` is the frontier hash of the
    /// mark its last save wrote, so that a rewind undoes an unbroken chain of saves back from the models' mark;
    /// each save updates it, so it is a small row apart from the `merged_position` row the step's first save
    /// found (`merged_journal_position`, the frame in it: rewriting a row rewrites its overflow pages). A
    /// before-image with a `NULL` status, stacks or inverses stands for no row.
    static let journalSchema = """
        CREATE TABLE merged_journal (
            step INTEGER PRIMARY KEY,
            saves INTEGER NOT NULL,
            after_hash TEXT NOT NULL
        );
        CREATE TABLE merged_journal_position (
            step INTEGER PRIMARY KEY,
            hash TEXT NOT NULL,
            devices TEXT NOT NULL,
            last_key TEXT,
            frame BLOB NOT NULL,
            ends TEXT NOT NULL
        );
        CREATE TABLE merged_journal_records (
            step INTEGER NOT NULL,
            id TEXT NOT NULL,
            status INTEGER,
            stamps BLOB,
            start_ms INTEGER,
            end_ms INTEGER,
            tag_id TEXT,
            comment TEXT,
            provenance TEXT,
            PRIMARY KEY (step, id)
        ) WITHOUT ROWID;
        CREATE TABLE merged_journal_stacks (
            step INTEGER NOT NULL,
            device TEXT NOT NULL,
            stacks BLOB,
            PRIMARY KEY (step, device)
        ) WITHOUT ROWID;
        CREATE TABLE merged_journal_entries (
            step INTEGER NOT NULL,
            device TEXT NOT NULL,
            stack TEXT NOT NULL,
            batch_start INTEGER NOT NULL,
            inverses TEXT,
            PRIMARY KEY (step, device, stack, batch_start)
        ) WITHOUT ROWID;
        """

    /// How many steps the journal keeps, of ``savesPerStep`` saves each: 2 000 saves. A command saves once, and
    /// so does a `stint sync` that took events in, so a device offline for a week of a few hundred commands a
    /// day on the others still rewinds.
    static let journalSteps: Int64 = 125

    /// How many saves a journal step holds: each step keeps one frame and one image of each stack (some 25 kB
    /// at a million events), so a rewind goes back to the start of a step, folding again up to 15 saves
    /// more than it must (everything after an earlier mark sorts after it).
    static let savesPerStep: Int64 = 16

    /// The tables a rebuild empties (part of ``emptyForBulkLoad``) and a schema change drops.
    static let journalTables = [
        "merged_journal", "merged_journal_position", "merged_journal_records", "merged_journal_stacks",
        "merged_journal_entries",
    ]

    /// The journal step a save to `mark` that writes the rows of `ids` and the stacks of `devices` belongs to,
    /// with what it must keep: the newest step while it holds fewer than ``savesPerJournalStep`` saves and
    /// ends at the models' mark (its mark moves to `mark`; it keeps the first before-image of each row and
    /// stack, and its frame is the one before its first save), else a new one holding the mark and frame the
    /// models hold now, the steps older than the newest ``journalSteps`` dropped. nil when the models hold no
    /// merged fold yet (nothing to roll back to).
    func beginJournalStep(to mark: MergedMark, writing ids: [EntityID], stacksOf devices: [DeviceID?])
        throws(ReadModelError) -> Int64?
    {
        let newest = try database.statement(
            """
            SELECT j.step, j.saves, j.after_hash = p.hash FROM merged_journal j, merged_position p
            ORDER BY j.step DESC LIMIT 1
            """)
        let found =
            try newest.step() ? (step: newest.integer(0), saves: newest.integer(1), onMark: newest.integer(2)) : nil
        let step: Int64
        if let found, found.saves < savesPerJournalStep, found.onMark == 1 {
            step = found.step
            try database.statement("UPDATE merged_journal SET after_hash = ?, saves = saves + 1 WHERE step = ?").bind(
                .text(mark.frontier.hash), .integer(step)
            ).run()
        } else {
            let last = try database.statement("SELECT coalesce(max(step), 0) FROM merged_journal")
            _ = try last.step()
            step = last.integer(0) + 1
            try database.statement(
                """
                INSERT INTO merged_journal_position (step, hash, devices, last_key, frame, ends)
                SELECT ?, hash, devices, last_key, frame, ends FROM merged_position
                """
            ).bind(.integer(step)).run()
            guard database.changes > 0 else { return nil }
            try database.statement("INSERT INTO merged_journal (step, saves, after_hash) VALUES (?, 1, ?)").bind(
                .integer(step), .text(mark.frontier.hash)
            ).run()
            for table in Self.journalTables {
                try database.statement("DELETE FROM \(table) WHERE step <= ?").bind(
                    .integer(step - Self.journalSteps)
                ).run()
            }
        }
        // The images of the rows this connection knows the tables hold (``heldRows``) are written as it knows
        // them; the others are read from the tables.
        var unknown: [EntityID] = []
        let image = try database.statement(
            """
            INSERT OR IGNORE INTO merged_journal_records
                (step, id, status, stamps, start_ms, end_ms, tag_id, comment, provenance)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """)
        for id in Set(ids).sorted() {
            guard case .some(let row) = heldRows[id] else {
                unknown.append(id)
                continue
            }
            let values = row?.values
            image.reset()
            try image.bind(
                .integer(step), .text(id.uuidString), .optional(row.map { Int64($0.status.rawValue) }),
                row.map { .blob($0.bookkeeping) } ?? .null, .optional(values?.start.milliseconds),
                .optional(values?.end?.milliseconds), .optional(values?.tagId?.uuidString), .optional(values?.comment),
                .optional(row?.provenance.map { LogState.json($0).encodedString })
            ).run()
        }
        if !unknown.isEmpty {
            let list = JSON.array(unknown.map { .string($0.uuidString) }).encodedString
            try database.statement(
                """
                INSERT OR IGNORE INTO merged_journal_records
                    (step, id, status, stamps, start_ms, end_ms, tag_id, comment, provenance)
                SELECT ?, j.value, CASE WHEN r.id IS NULL THEN s.status ELSE \(MergedFold.RecordStatus.live.rawValue) END,
                    coalesce(r.stamps, s.stamps), r.start_ms, r.end_ms, r.tag_id, r.comment, i.provenance
                FROM json_each(?) j LEFT JOIN record_stamps s ON s.id = j.value LEFT JOIN records r ON r.id = j.value
                LEFT JOIN imports i ON i.id = j.value
                """
            ).bind(.integer(step), .text(list)).run()
        }
        let columns = JSON.array(Set(devices.map(Self.deviceColumn)).sorted().map { .string($0) }).encodedString
        try database.statement(
            """
            INSERT OR IGNORE INTO merged_journal_stacks (step, device, stacks)
            SELECT ?, j.value, m.stacks FROM json_each(?) j LEFT JOIN merged_stacks m ON m.device = j.value
            """
        ).bind(.integer(step), .text(columns)).run()
        return step
    }

    /// Keeps in journal step `step` the before-image of the whole undo entry at `key`, which the save is
    /// about to write or drop (the first image of a step is the one kept).
    func journalEntry(at key: MergedFold.StackEntryKey, in step: Int64) throws(ReadModelError) {
        let insert = try database.statement(
            """
            INSERT OR IGNORE INTO merged_journal_entries (step, device, stack, batch_start, inverses)
            VALUES (?4, ?1, ?2, ?3,
                (SELECT inverses FROM merged_undo_entries WHERE device = ?1 AND stack = ?2 AND batch_start = ?3))
            """)
        try Self.bind(key, to: insert)
        try insert.bind(at: 4, .integer(step))
        try insert.run()
    }

    /// Rolls the models back, in one transaction, to the start of the newest journal step whose mark there
    /// sorts before `key` (the models' own mark when it does), and returns that mark: every step since is
    /// undone (the rows, stacks and whole undo entries its saves wrote, its frame and mark put back as the step
    /// found them, the tags and day totals with them) and leaves the journal. nil, with the models unchanged,
    /// when the journal does not reach back so far (it keeps ``journalSteps`` steps, and a rebuild empties it).
    ///
    /// - Throws: ``ReadModelError`` when the journal or the models are not readable or cannot be written.
    func rewind(toBefore key: MergeKey) throws(ReadModelError) -> MergedMark? {
        guard let current = try mergedMark() else { return nil }
        // Nothing folded sorts at or after `key`: the models are where a rewind would take them.
        if current.lastKey.map({ $0 < key }) ?? true { return current }
        heldRows = [:]
        let rewound = try database.transaction { () throws(ReadModelError) -> MergedMark? in
            guard let oldest = try oldestStepToUndo(from: current, before: key) else { return nil }
            try undoRecords(since: oldest)
            try undoStacksAndEntries(since: oldest)
            try database.statement(
                """
                INSERT OR REPLACE INTO merged_position (singleton, hash, devices, last_key, frame, ends)
                SELECT 1, hash, devices, last_key, frame, ends FROM merged_journal_position WHERE step = ?
                """
            ).bind(.integer(oldest)).run()
            for table in Self.journalTables {
                try database.statement("DELETE FROM \(table) WHERE step >= ?").bind(.integer(oldest)).run()
            }
            let frame = try storedFrame()
            try database.execute("DELETE FROM tags")
            for tag in frame.frame.state.tags.values.sorted(by: { $0.id < $1.id }) { try write(tag) }
            try writeDayTotals(calendar: frame.calendar)
            return try mergedMark()
        }
        if let rewound { setHead(rewound.head) }
        return rewound
    }

    /// The oldest step a rewind from `current` to before `key` undoes: back from the newest, each step's
    /// mark following on from the one before, to the first whose earlier mark's last key sorts before `key`.
    /// nil when the chain breaks or ends first.
    private func oldestStepToUndo(from current: MergedMark, before key: MergeKey) throws(ReadModelError) -> Int64? {
        let steps = try database.statement(
            """
            SELECT j.step, j.after_hash, p.hash, p.last_key FROM merged_journal j
            JOIN merged_journal_position p ON p.step = j.step ORDER BY j.step DESC
            """)
        var hash = current.frontier.hash
        while try steps.step() {
            guard steps.text(1) == hash, let earlier = steps.text(2) else { return nil }
            hash = earlier
            if steps.isNull(3) { return steps.integer(0) }
            guard let lastKey = MergeKey(json: try Self.json(steps.text(3))) else {
                throw ReadModelError("the journal's last key of step \(steps.integer(0)) is not readable")
            }
            if lastKey < key { return steps.integer(0) }
        }
        return nil
    }

    /// Puts back each record the steps from `oldest` on wrote as the first of them found it.
    private func undoRecords(since oldest: Int64) throws(ReadModelError) {
        let rows = try database.statement(
            Self.firstImages(
                "id, status, stamps, start_ms, end_ms, tag_id, comment, provenance", in: "merged_journal_records",
                by: ["id"]))
        try rows.bind(.integer(oldest))
        var images: [(id: EntityID, row: MergedFold.RecordRow?)] = []
        while try rows.step() {
            guard let id = rows.entityID(0) else {
                throw ReadModelError("the journal's record \(rows.text(0) ?? "") is not readable")
            }
            images.append((id, rows.isNull(1) ? nil : try Self.mergedRow(in: rows)))
        }
        for (id, row) in images {
            if let row {
                try write(row, replacing: true)
            } else {
                try database.statement(Self.deleteStamps).bind(.text(id.uuidString)).run()
                try writeRecord(id, values: nil, deleted: false, provenance: nil, replacing: true)
            }
        }
    }

    /// Puts back each device's stacks and each whole undo entry the steps from `oldest` on wrote or dropped as
    /// the first of them found it: the rows they touched removed, and those that were there inserted again.
    private func undoStacksAndEntries(since oldest: Int64) throws(ReadModelError) {
        let stacks = Self.firstImages("device, stacks", in: "merged_journal_stacks", by: ["device"])
        let entries = Self.firstImages(
            "device, stack, batch_start, inverses", in: "merged_journal_entries",
            by: ["device", "stack", "batch_start"])
        for sql in [
            "DELETE FROM merged_stacks WHERE device IN (SELECT device FROM merged_journal_stacks WHERE step >= ?1)",
            "INSERT INTO merged_stacks (device, stacks) \(stacks) AND j.stacks IS NOT NULL",
            """
            DELETE FROM merged_undo_entries WHERE (device, stack, batch_start) IN
                (SELECT device, stack, batch_start FROM merged_journal_entries WHERE step >= ?1)
            """,
            "INSERT INTO merged_undo_entries (device, stack, batch_start, inverses) \(entries) AND j.inverses IS NOT NULL",
        ] {
            try database.statement(sql).bind(.integer(oldest)).run()
        }
    }

    /// A `SELECT` of `columns` from the journal table `table`: for each key (its `key` columns) the image of the
    /// first step at or after the one bound to `?1`, which is what the models held before those steps.
    private static func firstImages(_ columns: String, in table: String, by key: [String]) -> String {
        let same = key.map { "k.\($0) = j.\($0)" }.joined(separator: " AND ")
        return """
            SELECT \(columns) FROM \(table) j
            WHERE j.step = (SELECT min(k.step) FROM \(table) k WHERE \(same) AND k.step >= ?1)
            """
    }
}
