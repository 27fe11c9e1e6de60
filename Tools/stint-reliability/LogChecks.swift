import Foundation
import StintCore
import StintEngine
import StintLog

/// Something a writer reported as done: the events it must have left in the log, exactly once.
enum Acknowledgement {
    /// `stint-crash-writer` appended seqs `first…last`; a start names its record.
    case library(first: Int64, last: Int64, record: String?)
    /// A `stint` command printed the id of the record it started or tracked, or the records it stopped.
    case cli(type: String, records: [String])
}

/// What the harness checks a log against, and what it found.
struct LogChecks {
    let path: String
    let stint: String

    /// Every event of the log, and the reader's warning.
    func events() throws -> (events: [RecordedEvent], batches: [LogBatch], warning: LogProblem?) {
        let cursor = try LogReader(path: path).batches()
        var batches: [LogBatch] = []
        while let batch = try cursor.next() { batches.append(batch) }
        return (batches.flatMap(\.events), batches, cursor.warning)
    }

    /// Problems with the acknowledgements: an acknowledged event missing, at the wrong place, or twice.
    func problems(_ acknowledgements: [Acknowledgement], in events: [RecordedEvent]) -> [String] {
        var problems: [String] = []
        for (index, event) in events.enumerated() where event.seq != Int64(index + 1) {
            problems.append("event \(index + 1) has seq \(event.seq): the log is not gapless")
            break
        }
        var occurrences: [String: [Int64]] = [:]
        for event in events {
            if let record = event.data["recordId"]?.stringValue {
                occurrences["\(event.type) \(record)", default: []].append(event.seq)
            }
        }
        for acknowledgement in acknowledgements {
            switch acknowledgement {
            case .library(let first, let last, let record):
                if last > Int64(events.count) {
                    problems.append("acknowledged seqs \(first)…\(last) but the log ends at \(events.count)")
                    continue
                }
                if let record {
                    let seqs = occurrences["timer.started \(record)"] ?? []
                    if seqs.count != 1 || !(first...last).contains(seqs[0]) {
                        problems.append("record \(record) acknowledged at \(first)…\(last) is at seqs \(seqs)")
                    }
                }
            case .cli(let type, let records):
                for record in records where occurrences["\(type) \(record)"]?.count != 1 {
                    problems.append(
                        "\(type) of record \(record) acknowledged by stint appears "
                            + "\(occurrences["\(type) \(record)"]?.count ?? 0) times")
                }
            }
        }
        return problems
    }

    /// What a recovery found and did.
    struct Recovery {
        var tornTails = 0
        var temporaryFilesRemoved = 0
        var sealsCompleted = 0
        var problems: [String] = []
    }

    /// Opens the log for writing as the next writer would (repairing what a kill left), checking that torn
    /// bytes were set aside byte for byte and the segment kept exactly the bytes before them.
    func recover(sealThreshold: Int64) -> Recovery {
        var before: [String: [UInt8]] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        where name.hasSuffix(".jsonl.zst") {
            before[name] = bytes(of: name)
        }
        final class Notices: @unchecked Sendable {
            var list: [LogNotice] = []
        }
        let notices = Notices()
        var configuration = LogConfiguration(
            clock: { Instant(milliseconds: 0) }, sealThreshold: sealThreshold, lockTimeout: .seconds(30),
            onNotice: { notices.list.append($0) })
        configuration.readChunkSize = 64 << 10
        var recovery = Recovery()
        do {
            let writer = try LogWriter.open(at: path, configuration: configuration)
            writer.close()
        } catch {
            recovery.problems.append("the log does not open for writing: \(error.message)")
            return recovery
        }
        for notice in notices.list {
            switch notice.kind {
            case .tornTailSetAside:
                recovery.tornTails += 1
                guard let segment = notice.location?.segment, let offset = notice.location?.offset,
                    let original = before[segment]
                else { continue }
                let tail = Array(original[Int(offset)...])
                let names = ((try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []).filter {
                    $0.hasPrefix("\(segment).torn-\(offset)") && !$0.hasSuffix(".tmp")
                }
                if !tail.isEmpty && !names.contains(where: { bytes(of: $0) == tail }) {
                    recovery.problems.append("the torn tail of \(segment) at \(offset) was not kept byte for byte")
                }
                if offset > 0, let after = bytes(of: segment), after != Array(original[..<Int(offset)]),
                    !notices.list.contains(where: { $0.kind == .interruptedSealCompleted })
                {
                    recovery.problems.append("\(segment) is not its bytes before the torn tail")
                }
            case .temporaryFileRemoved: recovery.temporaryFilesRemoved += 1
            case .interruptedSealCompleted: recovery.sealsCompleted += 1
            case .sealFailed: recovery.problems.append("sealing failed: \(notice.message)")
            }
        }
        return recovery
    }

    func bytes(of name: String) -> [UInt8]? {
        FileManager.default.contents(atPath: path + "/" + name).map { Array($0) }
    }

    /// Runs `stint verify`; nil when it passes, else what it printed.
    func verifyWithCLI() -> String? {
        guard let outcome = try? ChildProcess.run(stint, ["--log", path, "verify"]) else {
            return "could not run \(stint)"
        }
        return outcome.status == 0 ? nil : "stint verify exited \(outcome.status): \(outcome.stdout)\(outcome.stderr)"
    }

    /// Problems with checkpoints: the state read through them differs from the state folded from event 1.
    func checkpointProblems(_ events: [RecordedEvent]) -> [String] {
        guard var state = events.first.flatMap({ try? LogState(genesis: $0) }) else { return ["no genesis event"] }
        for event in events.dropFirst() {
            do {
                try state.apply(event)
            } catch {
                return ["event \(event.seq) does not fold: \(error.message)"]
            }
        }
        let options = EngineOptions(
            clock: { Instant(milliseconds: 0) }, newID: { EntityID(high: 0, low: 0) }, writesCheckpoints: false)
        do {
            let view = try LogView.load(try LogSource.open(path: path), at: .latest, options: options)
            return view.state == state ? [] : ["the state read through the checkpoints differs from a full fold"]
        } catch {
            return ["the log does not load: \(error)"]
        }
    }

    /// The names and bytes of every file of the log (checkpoints aside), to show that a command changed nothing.
    /// After a kill between a command's append and its read models' update: the next command catches them
    /// up, and what the read verbs print from them is what they print from a fold of the log alone (a copy
    /// without read models or checkpoints). `round` names the tag the catching-up command creates.
    func readModelProblems(round: Int) -> [String] {
        let now = ["STINT_NOW": "2100-01-01T00:00:00Z"]
        let added = try? ChildProcess.run(stint, ["--log", path, "tag", "add", "check-\(round)"], environment: now)
        guard let added, added.status == 0 else {
            return ["the command after the kill failed: \(added?.stderr ?? "it did not start")"]
        }
        let copy = path + "-fold-\(round)"
        defer { try? FileManager.default.removeItem(atPath: copy) }
        do {
            try FileManager.default.copyItem(atPath: path, toPath: copy)
            for name in try FileManager.default.contentsOfDirectory(atPath: copy)
            where name == "checkpoints" || name.hasPrefix("read-models.sqlite") {
                try FileManager.default.removeItem(atPath: copy + "/" + name)
            }
        } catch {
            return ["the log could not be copied: \(error)"]
        }
        var problems: [String] = []
        for verb in [["status", "--json"], ["export", "json"], ["report", "--all", "--by", "tag", "--json"]] {
            let fromModels = try? ChildProcess.run(stint, ["--log", path] + verb, environment: now)
            let fromFold = try? ChildProcess.run(stint, ["--log", copy] + verb, environment: now)
            if fromModels?.status != 0 || fromModels?.stdout != fromFold?.stdout {
                problems.append("stint \(verb.joined(separator: " ")) differs between the read models and a fold")
            }
        }
        return problems
    }

    /// The bytes of the log's files, without its caches (checkpoints and the read models, which the writer
    /// holding the lock may write meanwhile).
    func snapshot() -> [String: [UInt8]] {
        var files: [String: [UInt8]] = [:]
        for name in (try? FileManager.default.contentsOfDirectory(atPath: path)) ?? []
        where name != "checkpoints" && !name.hasPrefix("read-models.sqlite") {
            files[name] = bytes(of: name)
        }
        return files
    }
}
