import Testing

@testable import StintCore

/// A replica's read models keep the merged fold in parts (``MergedFold/Parts``): a frame and a row per
/// record. At every batch of random spaces of two and three devices, a model of rows and a frame loads the
/// rows a batch needs (the running records, the one that ended last, the records the batch names and those
/// its device's stacks edit), folds the batch onto them and writes back the rows the fold says it changed
/// and the frame; it must hold what the whole fold holds, row for row and byte for byte.
@Suite struct MergedFoldPartsTests {
    /// A read model as the tests keep one: the frame's checkpoint bytes and the rows by id.
    struct Model {
        var frame: [UInt8]
        var rows: [EntityID: MergedFold.RecordRow]

        init(_ fold: MergedFold) {
            frame = fold.frame.checkpoint
            rows = Dictionary(uniqueKeysWithValues: fold.rows.map { ($0.id, $0) })
        }

        /// The parts a batch of `device` naming `ids` loads: running records, the one that ended last, the
        /// named ones and those the device's stacks edit.
        func parts(for device: DeviceID?, naming ids: [EntityID]) throws -> MergedFold.Parts {
            let frame = try frame.withUnsafeBytes { bytes throws(DomainError) in try MergedFold(checkpoint: bytes) }
            var chosen = Set(ids + frame.recordsEditedByStacks(of: device))
            let live = rows.values.compactMap(\.values)
            chosen.formUnion(live.filter(\.isRunning).map(\.id))
            if let last = live.filter({ !$0.isRunning }).max(by: { ($0.end!, $0.id) < ($1.end!, $1.id) }) {
                chosen.insert(last.id)
            }
            return MergedFold.Parts(frame: frame, rows: chosen.sorted().compactMap { rows[$0] })
        }

        /// Writes back what a fold built from parts changed: the rows it names, and its frame.
        mutating func write(_ changed: [MergedFold.RecordRow], frame fold: MergedFold) {
            for row in changed { rows[row.id] = row }
            frame = fold.frame.checkpoint
        }
    }

    @Test(arguments: [UInt64(0x9A_0001), 0x9A_0002, 0x9A_0003])
    func aModelOfRowsFoldsEveryBatchAsTheWholeFold(seed: UInt64) throws {
        let devices = seed % 2 == 0 ? [SpaceHistory.a, SpaceHistory.b] : MergedFoldSliceTests.devices
        let space = try MergedFoldDifferentialTests.randomSpace(seed: seed, devices: devices, steps: 200)
        let batches = Self.batches(space.merged)
        var whole = try MergedFold(genesis: batches[0][0])
        var model = Model(whole)
        var changedRows = 0
        for (index, batch) in batches.dropFirst().enumerated() {
            let device = batch[0].device
            let named = batch.flatMap { (try? DomainEvent($0))?.namedRecordIds ?? [] }
            let parts = try model.parts(for: device, naming: named)
            var fold = try MergedFold(parts: parts)
            // Before the batch: the command's slice from the parts is the whole fold's.
            #expect(
                fold.slice(for: device, including: named) == whole.slice(for: device, including: named),
                "seed \(seed), batch \(index)")
            let before = whole
            let onWhole = Result { () throws(DomainError) in for event in batch { try whole.apply(event) } }
            let onParts = Result { () throws(DomainError) in for event in batch { try fold.apply(event) } }
            #expect(
                "\(onWhole)" == "\(onParts)",
                "seed \(seed), batch \(index): \(onWhole) on the whole, \(onParts) in parts")
            if case .failure = onWhole { continue }
            let changed = fold.takeChangedRows()
            for row in changed { #expect(whole.row(of: row.id) == row, "seed \(seed), batch \(index): \(row.id)") }
            // Every row the batch changed is reported (a missed one would leave the model behind).
            let reported = Set(changed.map(\.id))
            for row in whole.rows where before.row(of: row.id) != row {
                #expect(reported.contains(row.id), "seed \(seed), batch \(index): \(row.id) changed unreported")
            }
            changedRows += changed.count
            #expect(fold.frame.checkpoint == whole.frame.checkpoint, "seed \(seed), batch \(index): the frame")
            #expect(fold.state(for: device).undoStack == whole.state(for: device).undoStack)
            #expect(fold.state(for: device).redoStack == whole.state(for: device).redoStack)
            model.write(changed, frame: fold)
            #expect(fold.takeChangedRows().isEmpty, "taken once")
        }
        #expect(changedRows > 80, "seed \(seed): only \(changedRows) rows changed")
        // The model is the whole fold, and a fold of all its rows is the whole fold's state.
        #expect(model.frame == whole.frame.checkpoint)
        #expect(model.rows == Dictionary(uniqueKeysWithValues: whole.rows.map { ($0.id, $0) }))
        let rebuilt = try MergedFold(parts: MergedFold.Parts(frame: whole.frame, rows: whole.rows))
        for device in devices { #expect(rebuilt.state(for: device) == whole.state(for: device), "seed \(seed)") }
        #expect(rebuilt.rows == whole.rows)
        #expect(whole.rows.contains { $0.status == .deleted }, "seed \(seed): no deleted record")
    }

    /// One fold in parts folds on over several batches, as a replica's fold catches up or a writer kept open
    /// goes from command to command: before each batch it takes in (``MergedFold/include(_:)``) the rows the
    /// batch names and those its device's stacks edit that it does not hold yet; rows it holds are newer than
    /// the model's until they are written back, and are kept. It is started again from the model at random.
    @Test(arguments: [UInt64(0x9A_0011), 0x9A_0012])
    func aFoldInPartsFoldsOnOverSeveralBatches(seed: UInt64) throws {
        let devices = seed % 2 == 0 ? [SpaceHistory.a, SpaceHistory.b] : MergedFoldSliceTests.devices
        let space = try MergedFoldDifferentialTests.randomSpace(seed: seed, devices: devices, steps: 200)
        let batches = Self.batches(space.merged)
        var random = SplitMix64(seed: seed)
        var whole = try MergedFold(genesis: batches[0][0])
        var model = Model(whole)
        var fold = try MergedFold(parts: model.parts(for: nil, naming: []))
        var longest = 0
        var run = 0
        for (index, batch) in batches.dropFirst().enumerated() {
            if random.next() % 8 == 0 {
                fold = try MergedFold(parts: model.parts(for: nil, naming: []))
                run = 0
            }
            let device = batch[0].device
            let named = batch.flatMap { (try? DomainEvent($0))?.namedRecordIds ?? [] }
            let wanted = fold.missing(named + fold.recordsEditedByStacks(of: device))
            try fold.include(wanted.compactMap { model.rows[$0] })
            #expect(fold.takeChangedRows().isEmpty, "seed \(seed), batch \(index): rows taken in are not changes")
            let onWhole = Result { () throws(DomainError) in for event in batch { try whole.apply(event) } }
            let onParts = Result { () throws(DomainError) in for event in batch { try fold.apply(event) } }
            #expect("\(onWhole)" == "\(onParts)", "seed \(seed), batch \(index)")
            if case .failure = onWhole { continue }
            let changed = fold.takeChangedRows()
            // The model's rows are older than the fold's until written back: taking them in again keeps the fold's.
            try fold.include(changed.compactMap { model.rows[$0.id] })
            for row in changed { #expect(fold.row(of: row.id) == whole.row(of: row.id), "seed \(seed): \(row.id)") }
            model.write(changed, frame: fold)
            #expect(fold.frame.checkpoint == whole.frame.checkpoint, "seed \(seed), batch \(index): the frame")
            #expect(fold.state(for: device).undoStack == whole.state(for: device).undoStack)
            for id in fold.rows.map(\.id) { #expect(fold.row(of: id) == whole.row(of: id), "seed \(seed): \(id)") }
            #expect(
                fold.state.runningRecordIds == whole.state.runningRecordIds,
                "seed \(seed), batch \(index): the running records, in order")
            run += 1
            longest = max(longest, run)
        }
        #expect(longest > 10, "seed \(seed): one fold folded on over \(longest) batches at most")
        #expect(model.rows == Dictionary(uniqueKeysWithValues: whole.rows.map { ($0.id, $0) }))
    }

    @Test func partsThatCannotBeAFoldAreRefused() throws {
        let space = try MergedFoldDifferentialTests.randomSpace(seed: 0x9A_0001, devices: MergedFoldSliceTests.devices)
        let whole = try space.fold()
        let rows = whole.rows
        let live = try #require(rows.firstIndex { $0.status == .live })
        let deleted = try #require(rows.firstIndex { $0.status == .deleted })
        var twice = rows
        twice.append(rows[live])
        var noValues = rows
        noValues[live].values = nil
        var otherID = rows
        otherID[live].values?.id = rows[deleted].id
        var undeleted = rows
        undeleted[deleted].deletedBy = nil
        var unknownDevice = rows
        unknownDevice[live].stamps.created = MergedFold.Stamp(device: 9, seq: 1, position: 2)
        for (what, rows) in [
            ("a row twice", twice), ("a live row without values", noValues), ("values of another id", otherID),
            ("a deletion without its event", undeleted), ("a stamp of an unknown device", unknownDevice),
        ] {
            #expect(throws: DomainError.self, "\(what)") {
                try MergedFold(parts: MergedFold.Parts(frame: whole.frame, rows: rows))
            }
        }
        #expect(throws: DomainError.self, "a frame holding records") {
            try MergedFold(parts: MergedFold.Parts(frame: whole, rows: []))
        }
        #expect(try MergedFold(parts: MergedFold.Parts(frame: whole.frame, rows: rows)).rows == rows)
    }

    /// The merged history's batches: consecutive events of one device and one batch.
    static func batches(_ events: [RecordedEvent]) -> [[RecordedEvent]] {
        var batches: [[RecordedEvent]] = []
        for event in events {
            if let last = batches.last?.last, last.device == event.device, event.batchStart != event.seq {
                batches[batches.count - 1].append(event)
            } else {
                batches.append([event])
            }
        }
        return batches
    }
}
