import StintCore
import StintEngine

/// `stint snapshot`.
struct SnapshotVerb: Verb {
    static let spec = VerbSpec(
        path: ["snapshot"],
        abstract: "Print the widget snapshot (WidgetData JSON) as of now, --at TIME or --seq N.",
        options: PointArguments.options + [AsPublished.flag, ExpectOption.option],
        discussion: """
            The snapshot is what an app following the reference design publishes for its widgets. By default
            it is the snapshot a publish at the point would write: built from the events recorded by then,
            with the point as lastUpdated. With --as-published it is what the snapshot file held at the
            point: the snapshot of the app's last write at or before it (the app publishes after every
            batch but writes only when the snapshot changed or the file's is stale, see 'stint replay'),
            with that write's time as lastUpdated.
            """,
        examples: [
            ("stint snapshot", "Today's snapshot."),
            ("stint snapshot --at \"2026-11-24T09:00\"", "What a publish at 9:00 on Tuesday writes."),
            ("stint snapshot --at \"2026-11-24T09:00\" --as-published", "What the widget's file held then."),
        ]
    )

    let point: PointArguments
    let asPublished: Bool
    let expect: String?

    init(_ arguments: ParsedArguments) throws(CLIError) {
        point = try PointArguments(arguments, verb: Self.spec.name)
        asPublished = arguments[AsPublished.flag]
        expect = arguments[ExpectOption.option]
    }

    func run(_ context: CommandContext) throws(CLIError) {
        let snapshot: WidgetData
        if asPublished {
            snapshot = try PublishedMoment.load(point, context: context).snapshot
        } else {
            let view = try context.projectionView(point)
            snapshot = WidgetData(source: view.source, now: view.now)
        }
        try ExpectOption.emit(snapshot.json.prettyEncoded(), expect: expect, context: context)
    }
}
