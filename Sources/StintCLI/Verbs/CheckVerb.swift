import StintCore

/// `stint check`.
struct CheckVerb: Verb {
    static let update = Flag(
        "update", "Record the expected files from the current outputs instead of comparing (review the diff).")

    static let spec = VerbSpec(
        path: ["check"],
        abstract: "Run projection test cases: queries against a recorded log, compared with expected outputs.",
        arguments: [ArgumentSpec(name: "DIR", help: "A case directory, or a directory of cases.")],
        options: [update],
        discussion: """
            A case is a directory holding events.jsonl (the log, as 'stint history --json' prints it),
            queries.txt (one query a line: 'name: <stint arguments>', or 'name (exit N): <arguments>' for a
            query that must end with status N; '#' starts a comment) and expected/<name>.out (the query's
            standard output, byte for byte). An optional expected/<name>.err is compared with standard error,
            and an optional case.json ({"now": "2026-03-08T17:00:00Z"}) sets the time queries without --at
            or --seq run at; without it, "now" is the time of the log's last event.

            Each query runs in process against the case's log, with that "now" and nothing from the machine
            (no time zone, locale or environment), so a case gives the same result everywhere. A failing
            query prints its differences (by JSON path for JSON output, by line otherwise) and the command
            that reruns it. The last line is 'N passed, M failed'; the exit status is 0 when nothing failed,
            1 otherwise. --update writes the expected files (and removes those of queries that are gone),
            listing every file it changed: review them before committing. docs/testing.md has a complete
            example for a CI job.
            """,
        examples: [
            ("stint check Events/golden", "Runs every case under Events/golden."),
            ("stint check tests/widgets/monday-rollover", "Runs one case."),
            ("stint check --update tests/widgets", "Re-records the expected outputs after an intended change."),
        ]
    )

    let directory: String
    let update: Bool

    init(_ arguments: ParsedArguments) throws(CLIError) {
        directory = arguments.positionals[0]
        update = arguments[Self.update]
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let runner = CheckRunner(update: update)
        var report = CheckRunner.Report()
        for directory in try CheckRunner.caseDirectories(in: directory) {
            report.merge(runner.run(caseAt: directory))
        }
        if context.globals.json {
            context.printJSON(CheckVerb.json(report))
        } else {
            for failure in report.failures {
                let name = failure.query.map { "\(failure.caseName)/\($0)" } ?? failure.caseName
                context.print("FAIL \(name)")
                for line in failure.lines { context.print("  " + line) }
            }
            for line in report.updated { context.print(line) }
            if update {
                let count = report.updated.count
                context.print(
                    count == 0
                        ? "No expected file changed."
                        : "Updated \(count) expected file\(count == 1 ? "" : "s"); review them (git diff) before committing."
                )
            }
            context.print("\(report.passed) passed, \(report.failed) failed")
        }
        if report.failed > 0 {
            throw CLIError(
                code: .refused, message: "\(report.failed) of \(report.passed + report.failed) queries failed",
                verb: nil)
        }
    }

    /// `{"passed","failed","failures":[{"case","query"?,"lines"}],"updated":[…]}`.
    static func json(_ report: CheckRunner.Report) -> JSON {
        .object([
            JSONField("passed", .int(Int64(report.passed))),
            JSONField("failed", .int(Int64(report.failed))),
            JSONField(
                "failures",
                .array(
                    report.failures.map { failure in
                        var object = JSONObjectBuilder()
                        object.add("case", .string(failure.caseName))
                        object.add("query", failure.query)
                        object.add("lines", .array(failure.lines.map(JSON.string)))
                        return object.json
                    })),
            JSONField("updated", .array(report.updated.map(JSON.string))),
        ])
    }
}
