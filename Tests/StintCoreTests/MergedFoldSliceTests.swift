import Testing

@testable import StintCore

/// A replica's command decides on a slice of the merged fold (``MergedFold/slice(for:matching:including:)``):
/// at every step of random spaces, random commands (naming live records, deleted ones, short prefixes that
/// may match several, and ids that match none) decide on the slice exactly as on the device's whole state,
/// and a slice holds the live and deleted records it is asked to include.
@Suite struct MergedFoldSliceTests {
    static let devices = [SpaceHistory.a, SpaceHistory.b, SpaceHistory.c]

    @Test(arguments: [UInt64(0x51_0001), 0x51_0002, 0x51_0003])
    func commandsDecideOnTheSliceAsOnTheWholeState(seed: UInt64) throws {
        let space = try MergedFoldDifferentialTests.randomSpace(seed: seed, devices: Self.devices)
        let fold = try space.fold()
        var random = SplitMix64(seed: seed)
        var decided = 0
        var referring = 0
        for step in 0..<400 {
            let device = Self.devices[step % Self.devices.count]
            let whole = fold.state(for: device)
            let command = Self.command(whole, now: space.now, using: &random)
            let slice = fold.slice(for: device, matching: command.recordReferences)
            #expect(slice.records.count <= whole.records.count)
            func decision(_ state: LogState) -> Result<Decision, DomainError> {
                let ids = SequentialIDs()
                let context = DecisionContext(now: space.now, newID: ids.next, space: SpaceHistory.spaceId)
                do throws(DomainError) {
                    return .success(try decide(command, state: state, context: context))
                } catch {
                    return .failure(error)
                }
            }
            let onSlice = decision(slice)
            let onWhole = decision(whole)
            #expect(
                onSlice.map(\.self) == onWhole.map(\.self) || Self.sameRefusal(onSlice, onWhole),
                "seed \(seed), step \(step): \(command) decided \(onSlice) on the slice, \(onWhole) on the whole state")
            if case .success = onWhole { decided += 1 }
            if !command.recordReferences.isEmpty { referring += 1 }
        }
        #expect(decided > 150, "seed \(seed): only \(decided) commands were decided")
        #expect(referring > 100, "seed \(seed): only \(referring) commands named records")
        // The records asked for by id, live or deleted, are there as in the whole state.
        let whole = fold.state
        let ids = Array(whole.records.keys.sorted().prefix(7)) + Array(whole.deletedRecordIds.sorted().prefix(3))
        let slice = fold.slice(for: Self.devices[0], including: ids)
        for id in ids {
            #expect(slice.records[id] == whole.records[id], "seed \(seed): \(id)")
            #expect(slice.deletedRecordIds.contains(id) == whole.deletedRecordIds.contains(id), "seed \(seed): \(id)")
        }
        #expect(!whole.deletedRecordIds.isEmpty, "seed \(seed): no deleted record to include")
    }

    static func sameRefusal(_ a: Result<Decision, DomainError>, _ b: Result<Decision, DomainError>) -> Bool {
        guard case .failure(let first) = a, case .failure(let second) = b else { return false }
        return first.code == second.code && first.message == second.message
    }

    static func command(_ state: LogState, now: Instant, using random: inout SplitMix64) -> Command {
        let records = state.records.values.sorted { $0.id < $1.id }
        let deleted = state.deletedRecordIds.sorted()
        let tags = ["mail", "writing", "Writing", "reading"]
        func pick<T>(_ items: [T], _ random: inout SplitMix64) -> T? {
            items.isEmpty ? nil : items[Int(random.next() % UInt64(items.count))]
        }
        func reference(_ random: inout SplitMix64) -> RecordRef {
            switch random.next() % 6 {
            case 0, 1: if let record = pick(records, &random) { return RecordRef(record.id) }
            case 2, 3:
                // A prefix that may match several records: the ids of a space's history share long prefixes.
                if let record = pick(records, &random) {
                    let digits = 4 + Int(random.next() % 26)
                    if let short = try? RecordRef(String(record.id.uuidString.prefix(digits))) { return short }
                }
            case 4: if let id = pick(deleted, &random) { return RecordRef(id) }
            default: break
            }
            return try! RecordRef("ffff0000")
        }
        func time(_ minutesAgo: UInt64, _ random: inout SplitMix64) -> ParsedTime {
            ParsedTime(now.adding(milliseconds: -Int64(random.next() % (minutesAgo + 1)) * 60_000))
        }
        let tag: TagChoice = .name(pick(tags, &random)!)
        switch random.next() % 14 {
        case 0: return .start(tag: tag, switching: random.next() % 2 == 0)
        case 1: return .stop(all: random.next() % 2 == 0)
        case 2: return .stop(records: [reference(&random)])
        case 3:
            return .edit(
                record: reference(&random), start: random.next() % 2 == 0 ? time(900, &random) : nil,
                comment: "c\(random.next() % 3)")
        case 4: return .delete(record: reference(&random))
        case 5: return .undo
        case 6: return .redo
        case 7:
            return .continue(
                record: random.next() % 2 == 0 ? nil : reference(&random), switching: random.next() % 2 == 0)
        case 8: return .cancel(record: random.next() % 2 == 0 ? nil : reference(&random))
        case 9: return .split(record: reference(&random), at: time(3_000, &random))
        case 10: return .join(first: reference(&random), second: reference(&random))
        case 11:
            let end = time(600, &random)
            return .track(
                start: ParsedTime(end.instant.adding(milliseconds: -Int64(random.next() % 7_200) * 1000 - 1000)),
                end: end, tag: tag)
        case 12: return .renameTag(name: pick(tags, &random)!, newName: pick(tags, &random)! + "2")
        default: return .edit(record: reference(&random), tag: tag)
        }
    }
}
