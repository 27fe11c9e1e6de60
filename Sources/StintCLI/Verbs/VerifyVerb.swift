import Foundation
import StintCore
import StintEngine

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `stint verify`.
struct VerifyVerb: Verb {
    static let expectHead = Option(
        "expect-head", "HEAD",
        "Also check the log against a head recorded elsewhere: SEQ:HASH as verify prints it, or the hash alone.")

    static let jobs = Option(
        "jobs", "N",
        "Read, decompress and decode the log's segments on N threads ahead of the checks (default: the processors online, at most 4; 1 reads on one thread). The report is the same for every N."
    )

    static let merged = Flag(
        "merged",
        "Check every device's log a space's log holds, fold their merged history, and print the frontier hash (equal on devices that hold the same events); what verify does on a log that is part of a space."
    )

    static let spec = VerbSpec(
        path: ["verify"],
        abstract: "Check every frame checksum, seq, hash link and event of the log; print its head.",
        options: [expectHead, jobs, merged],
        discussion: """
            Exit status 0 when the log is intact, 65 when it is damaged, with each problem's segment, byte
            offset and seq. Verify only reads: 'stint repair' salvages a damaged log. Record the head it prints somewhere
            else (a commit, a ticket) to detect later rewrites with --expect-head. On a terminal, a check that
            takes more than a second shows its progress and ends with its rate on standard error ("Verified
            1,000,001 events in 3.3 s (301,477 events/s)").
            """,
        examples: [
            ("stint verify", "Checks the log and prints its head."),
            ("stint verify --expect-head 1234:9f2c…", "Also fails if event 1234 is not what it was."),
        ]
    )

    let expectedHead: ExpectedHead?
    let isMerged: Bool
    /// `--jobs`: the threads that prepare segments; nil for the default.
    let jobs: Int?

    init(_ arguments: ParsedArguments) throws(CLIError) {
        isMerged = arguments[Self.merged]
        if isMerged, arguments[Self.expectHead] != nil {
            throw CLIError.usage(
                "--expect-head checks one log's head; a space's devices are compared by the frontier --merged prints",
                verb: Self.spec.name)
        }
        if let text = arguments[Self.jobs] {
            guard let jobs = Int(text), jobs >= 1 else {
                throw CLIError.usage("--jobs takes a whole number ≥ 1, not '\(text)'", verb: Self.spec.name)
            }
            self.jobs = jobs
        } else {
            jobs = nil
        }
        expectedHead = try arguments[Self.expectHead].map { (text) throws(CLIError) in
            guard let head = ExpectedHead(text) else {
                throw CLIError.usage(
                    "--expect-head takes SEQ:HASH (as 'stint verify' prints it) or a 64-digit hex hash, not '\(text)'",
                    verb: Self.spec.name)
            }
            return head
        }
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let reader = try context.reader(readWorkers: jobs)
        // A replica's own log alone does not fold (another device's stop of a record it never created does not
        // fit it): verifying a replica is verifying its space.
        if isMerged || reader.isReplica {
            guard expectedHead == nil else {
                throw CLIError.usage(
                    "--expect-head checks one log's head; the devices of a space are compared by the frontier "
                        + "'stint verify' prints", verb: Self.spec.name)
            }
            return try verifyMerged(reader, context)
        }
        let total = reader.lastSeq()
        var (report, needsReference, repairs, ignored) = try verify(
            reader, with: DomainCheck(compact: context.engineOptions.foldsCompactly, expectedEvents: total ?? 0),
            total: total, context)
        if needsReference {
            // An event the compact fold does not fold: the reference fold says why, at the same place.
            (report, _, repairs, ignored) = try verify(reader, with: DomainCheck(compact: false), total: total, context)
        }
        let problems = report.problems
        let head = report.head?.description ?? "none (the log has no events)"
        if context.globals.json {
            var object = JSONObjectBuilder()
            object.add("intact", .bool(problems.isEmpty))
            object.add("events", .int(report.eventCount))
            object.add("segments", .int(Int64(report.segmentCount)))
            object.add("head", report.head?.description)
            object.add("problems", .array(problems.map(JSON.string)))
            if !repairs.isEmpty { object.add("repairs", .array(repairs.map(JSON.string))) }
            if !ignored.isEmpty { object.add("ignoredAfterGap", .array(ignored.map(JSON.int))) }
            context.printJSON(object.json)
        } else {
            let segments = "\(report.segmentCount) segment\(report.segmentCount == 1 ? "" : "s")"
            if problems.isEmpty {
                context.print("intact: \(report.eventCount) events in \(segments)")
                // 'stint repair' cut the log: what it set aside stays part of the record.
                for repair in repairs { context.print("repaired at " + repair) }
                if !ignored.isEmpty { context.print(Self.ignoredLine(ignored)) }
            } else {
                context.print("damaged: \(problems.count) problem\(problems.count == 1 ? "" : "s") in \(reader.name)")
                for problem in problems { context.print("  " + problem) }
            }
            context.print("head \(head)")
        }
        Self.warnIfReadableByOthers(context)
        if !problems.isEmpty {
            throw CLIError(code: .damaged, message: "the log is damaged; see the problems above", verb: nil)
        }
    }

    /// `verify --merged`: every device's log, the merged fold, the frontier.
    private func verifyMerged(_ reader: LogSource, _ context: CommandContext) throws(CLIError) {
        let report: MergedVerificationReport
        do {
            report = try reader.verifyMerged()
        } catch {
            throw CLIError(error)
        }
        if context.globals.json {
            var object = JSONObjectBuilder()
            object.add("intact", .bool(report.isIntact))
            object.add(
                "devices",
                .array(
                    report.devices.map { entry in
                        .object([
                            "device": .string(entry.device.description), "events": .int(entry.report.eventCount),
                            "head": entry.report.head.map { .string($0.description) } ?? .null,
                            "problems": .array(entry.report.problems.map(JSON.string)),
                        ])
                    }))
            object.add("mergedEvents", .int(report.mergedEvents))
            object.add("foldProblem", report.foldProblem)
            object.add("frontier", .string(report.frontier.hash))
            context.printJSON(object.json)
        } else {
            for (device, log) in report.devices {
                let state = log.isIntact ? "intact" : "damaged"
                context.print(
                    "\(device.short)  \(state): \(log.eventCount) events, head \(log.head?.description ?? "none")")
                for problem in log.problems { context.print("  " + problem) }
            }
            if let problem = report.foldProblem {
                context.print("merged: \(problem)")
            } else {
                context.print("merged: \(report.mergedEvents) events fold")
            }
            context.print("frontier \(report.frontier.hash)")
        }
        Self.warnIfReadableByOthers(context)
        if !report.isIntact {
            throw CLIError(code: .damaged, message: "the space's logs are damaged; see the problems above", verb: nil)
        }
    }

    /// Warns when the log directory or one of its files can be read by other users of the machine.
    static func warnIfReadableByOthers(_ context: CommandContext) {
        guard let path = try? context.logPath, let exposed = VerifyVerb.readableByOthers(path) else { return }
        context.warn(
            "\(exposed) can be read by other users of this machine; time records are personal: "
                + "chmod -R go-rwx '\(path)' makes the log its owner's only")
    }

    /// Verifies the log with `check` as its domain check, showing progress on a terminal and, when it took
    /// long enough to show it, the rate; also whether the check needs the reference fold after all.
    private func verify(
        _ reader: LogSource, with check: DomainCheck, total: Int64?, _ context: CommandContext
    ) throws(CLIError) -> (report: VerificationReport, needsReference: Bool, repairs: [String], ignored: [Int64]) {
        var check = check
        var repairs: [String] = []
        let progress = Progress.start("Verifying", total: total, unit: "events", context: context)
        let report: VerificationReport
        do {
            defer { progress.finish() }
            report = try reader.verify(expecting: expectedHead) { event, follows in
                progress.update(completed: event.seq)
                if event.type == EventType.logRepaired.rawValue,
                    case .logRepaired(let from, let to, let reason, let resume)? = try? DomainEvent(event)
                {
                    let resumes = resume.map { "; the log resumes at seq \($0.seq)" } ?? ""
                    repairs.append(
                        "seq \(event.seq), \(event.at.iso8601): seqs \(from)–\(to) were damaged and set aside (\(reason))"
                            + resumes)
                }
                return check.check(event, follows: follows)
            }
        } catch {
            throw CLIError(error)
        }
        progress.finish(reporting: report.eventCount, as: "Verified")
        return (report, check.needsReference, repairs, check.ignoredAfterGap)
    }

    /// The events a fold ignores after a repair's gap, as `verify` lists them (the first 20 seqs).
    static func ignoredLine(_ seqs: [Int64]) -> String {
        let shown = seqs.prefix(20).map { "\($0)" }.joined(separator: ", ")
        let more = seqs.count > 20 ? " and \(seqs.count - 20) more" : ""
        let count = seqs.count == 1 ? "1 event that names" : "\(seqs.count) events that name"
        return "after the gap, the fold ignores \(count) what the lost events made: seq \(shown)\(more)"
    }

    /// The first entry of the log directory `path` (the directory itself, then its files) that users other
    /// than its owner may read, with its mode; nil when there is none, or `path` is not a directory.
    static func readableByOthers(_ path: String) -> String? {
        let files = FileManager.default
        var isDirectory: ObjCBool = false
        guard files.fileExists(atPath: path, isDirectory: &isDirectory), isDirectory.boolValue else { return nil }
        let names = ((try? files.contentsOfDirectory(atPath: path)) ?? []).sorted()
        for entry in [path] + names.map({ path + "/" + $0 }) {
            // lstat rather than FileManager's attributes, which also look up the owner's and group's names:
            // through NSS, which a statically linked stint should not need.
            var status = stat()
            guard lstat(entry, &status) == 0 else { continue }
            let mode = Int(status.st_mode) & 0o7777
            if mode & 0o044 != 0 {
                return "\(entry == path ? "the log directory \(path)" : entry) (mode \(String(mode, radix: 8)))"
            }
        }
        return nil
    }
}
