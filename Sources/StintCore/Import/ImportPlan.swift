/// The records an import makes of a source's intervals, and the report of what it did.
///
/// Pure: the same intervals and options always give the same plan. The mapping (specified in
/// `docs/import-export.md`):
/// - Timewarrior: the Stint tag is the first of the interval's tags that can be a Stint tag name (or the
///   first of ``ImportOptions/preferredTags`` the interval has); the comment is the annotation, then a line
///   `Tags: …` with the other tags.
/// - Watson: the Stint tag is the project; the comment is a line `Tags: …` with the frame's tags.
/// - A name that cannot be a tag (over 64 characters, blank, with control characters) is written in the
///   comment instead (`Project: …` for a Watson project), and the report lists it. Names and comments are
///   normalized as the domain's ``InputLimits`` does, so that importing again compares equal values.
/// - Intervals without an end become running records; an end before the start, an empty interval and a
///   repeated identity are skipped and listed.
public struct ImportPlan: Hashable, Sendable {
    /// The records, by start, then by id.
    public var records: [ImportedRecord]
    public var report: ImportReport

    public init(records: [ImportedRecord], report: ImportReport) {
        self.records = records
        self.report = report
    }

    /// Maps intervals (from ``TimewarriorExport/parse(_:)`` or ``WatsonFrames/parse(frames:state:)``) to
    /// records and a report.
    ///
    /// ```swift
    /// let plan = ImportPlan.make(intervals: try TimewarriorExport.parse(bytes))
    /// print(plan.report.mapped, plan.report.skipped.count)
    /// ```
    public static func make(intervals: [ImportedInterval], options: ImportOptions = ImportOptions()) -> ImportPlan {
        var report = ImportReport(read: intervals.count)
        var records: [ImportedRecord] = []
        records.reserveCapacity(intervals.count)
        var seen = Set<ImportSource>()
        var unknown: [String: ImportReport.UnknownMember] = [:]
        var unknownOrder: [String] = []

        for interval in intervals {
            for name in interval.unknownMembers {
                if unknown[name] == nil {
                    unknown[name] = ImportReport.UnknownMember(name: name, count: 0, first: interval.position)
                    unknownOrder.append(name)
                }
                unknown[name]!.count += 1
            }
            guard seen.insert(interval.source).inserted else {
                report.skipped.append(skip(.duplicateIdentity, interval))
                continue
            }
            if let end = interval.end {
                guard end >= interval.start else {
                    report.skipped.append(skip(.endBeforeStart, interval))
                    continue
                }
                guard end > interval.start else {
                    report.skipped.append(skip(.empty, interval))
                    continue
                }
            }
            let recordId = interval.source.recordId
            let mapping = Mapping(interval, options: options)
            let built = CommentBuilder.build(mapping, annotation: interval.annotation)
            var replacesRunningId: EntityID?
            if interval.source.system == .watson, interval.end != nil, let project = interval.project {
                replacesRunningId =
                    ImportSource(
                        system: .watson, identity: WatsonFrames.runningIdentity(start: interval.start, project: project)
                    ).recordId
            }
            records.append(
                ImportedRecord(
                    recordId: recordId, start: interval.start, end: interval.end, tagName: mapping.tagName,
                    comment: built.comment, source: interval.source, position: interval.position,
                    replacesRunningId: replacesRunningId))

            if !mapping.otherTags.isEmpty { report.commentsWithExtraTags += 1 }
            for name in mapping.unusableNames {
                report.namesInComments.append(
                    ImportReport.NameInComment(recordId: recordId, position: interval.position, name: name))
            }
            if let full = built.fullComment {
                report.truncated.append(
                    ImportReport.Truncation(
                        recordId: recordId, position: interval.position, fullComment: full, length: full.count))
            }
            if built.replacedControlCharacters {
                report.controlCharactersReplaced.append(
                    ImportReport.Adjustment(recordId: recordId, position: interval.position))
            }
            if let end = interval.end, end.milliseconds(since: interval.start) > InputLimits.maximumRecordMilliseconds {
                report.longerThanMaximum.append(
                    ImportReport.Adjustment(recordId: recordId, position: interval.position))
            }
            if interval.roundedToMillisecond {
                report.roundedToMillisecond.append(
                    ImportReport.Adjustment(recordId: recordId, position: interval.position))
            }
        }

        records.sort { ($0.start, $0.recordId) < ($1.start, $1.recordId) }
        report.mapped = records.count
        report.running = records.count { $0.isRunning }
        report.unknownMembers = unknownOrder.map { unknown[$0]! }
        (report.tagNames, report.mergedTagSpellings) = spellings(records.compactMap(\.tagName))
        return ImportPlan(records: records, report: report)
    }

    static func skip(_ reason: ImportReport.SkipReason, _ interval: ImportedInterval) -> ImportReport.Skip {
        ImportReport.Skip(
            reason: reason, source: interval.source, position: interval.position, start: interval.start,
            end: interval.end)
    }

    /// The distinct names compared case-insensitively (first spelling each), and the groups of spellings
    /// that differ only in case.
    static func spellings(_ names: [String]) -> ([String], [[String]]) {
        var groups: [String: [String]] = [:]
        var order: [String] = []
        for name in names {
            let key = name.lowercased()
            if groups[key] == nil {
                groups[key] = [name]
                order.append(key)
            } else if !groups[key]!.contains(name) {
                groups[key]!.append(name)
            }
        }
        return (order.map { groups[$0]![0] }, order.compactMap { groups[$0]!.count > 1 ? groups[$0]! : nil })
    }
}
