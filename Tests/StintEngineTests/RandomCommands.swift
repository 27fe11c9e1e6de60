import Foundation
import StintCore
import TestSupport

@testable import StintEngine

/// The commands the differential tests of the read models run (a single log's and a replica's).
enum RandomCommands {
    /// A random command on `state` at `now`: starts, stops, tracks, edits, deletes, undo and redo, continue,
    /// cancel, split, join, tag changes and imports, naming records by id, by a prefix (sometimes ambiguous),
    /// deleted ones, or none that exists.
    static func make(_ state: LogState, now: Instant, random: inout SplitMix64, importRound: inout Int) -> Command {
        let records = state.records.values.sorted { $0.id < $1.id }
        let deleted = state.deletedRecordIds.sorted()
        let tags = ["writing", "email", "Reading", "admin", "Review"]
        func pick<T>(_ items: [T]) -> T? { items.isEmpty ? nil : items[Int(random.next() % UInt64(items.count))] }
        func tagChoice() -> TagChoice { random.next() % 6 == 0 ? .untagged : .name(pick(tags)!) }
        func time(_ minutesAgo: UInt64) -> ParsedTime {
            ParsedTime(now.adding(milliseconds: -Int64(random.next() % (minutesAgo + 1)) * 60_000))
        }
        func reference() -> RecordRef {
            // A full id, a short prefix (sometimes ambiguous), a deleted record, or nothing that exists.
            switch random.next() % 6 {
            case 0, 1, 2: if let record = pick(records) { return RecordRef(record.id) }
            case 3:
                if let record = pick(records), let short = try? RecordRef(String(record.id.uuidString.prefix(4))) {
                    return short
                }
            case 4: if let id = pick(deleted) { return RecordRef(id) }
            default: break
            }
            return try! RecordRef("ffff0000")
        }
        let comment: String? = random.next() % 3 == 0 ? "note \(random.next() % 7)" : nil
        switch random.next() % 22 {
        case 0, 1, 2: return .start(tag: tagChoice(), comment: comment, switching: random.next() % 3 == 0)
        case 3, 4: return .stop(all: random.next() % 3 == 0)
        case 5: return .stop(records: [reference()])
        case 6, 7:
            let end = time(random.next() % 4 == 0 ? 4_000 : 600)
            return .track(
                start: ParsedTime(end.instant.adding(milliseconds: -Int64(random.next() % 7200) * 1000 - 1000)),
                end: end, tag: tagChoice(), comment: comment)
        case 8:
            return .edit(
                record: reference(), start: random.next() % 2 == 0 ? time(900) : nil,
                tag: random.next() % 2 == 0 ? tagChoice() : nil, comment: comment)
        case 9: return .delete(record: reference())
        case 10, 11: return .undo
        case 12: return .redo
        case 13: return .continue(record: random.next() % 2 == 0 ? nil : reference(), switching: random.next() % 2 == 0)
        case 14: return .cancel(record: random.next() % 2 == 0 ? nil : reference())
        case 15: return .split(record: reference(), at: time(300))
        case 16: return .join(first: reference(), second: reference())
        case 17: return .renameTag(name: pick(tags)!, newName: pick(tags)! + (random.next() % 2 == 0 ? "" : "2"))
        case 18: return random.next() % 2 == 0 ? .archiveTag(name: pick(tags)!) : .unarchiveTag(name: pick(tags)!)
        case 19: return random.next() % 2 == 0 ? .deleteTag(name: pick(tags)!) : .addTag(name: pick(tags)!)
        default: return importCommand(random: &random, importRound: &importRound)
        }
    }

    /// A Timewarrior import whose intervals change a little each time (re-imports and un-imports).
    static func importCommand(random: inout SplitMix64, importRound: inout Int) -> Command {
        importRound += 1
        var lines: [String] = []
        for id in 1...4 where (Int(random.next() % 5) != 0) {
            let hour = 8 + id + (importRound % 3 == 0 ? 1 : 0)
            lines.append(
                "{\"id\":\(id),\"start\":\"20260310T0\(hour)0000Z\",\"end\":\"20260310T0\(hour)3000Z\",\"tags\":[\"imported\(id % 2)\"]}"
                    .replacingOccurrences(of: "T010", with: "T10").replacingOccurrences(of: "T011", with: "T11")
                    .replacingOccurrences(of: "T012", with: "T12"))
        }
        let intervals = (try? TimewarriorExport.parse(Array("[\n\(lines.joined(separator: ",\n"))\n]".utf8))) ?? []
        return .import(ImportPlan.make(intervals: intervals), from: .timewarrior)
    }
}
