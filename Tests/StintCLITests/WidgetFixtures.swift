import StintCore

@testable import StintCLI

/// Logs to render widgets from, written as literal `ProjectionSource`s with fixed ids and instants, so
/// the golden files go through the real projection (`WidgetData(source:now:)`) and timeline builder.
///
/// The log's calendar is Berlin with Monday weeks; "now" is Wednesday 25 November 2026, 15:42:20.5.
enum WidgetFixtures {
    static let calendar = LogCalendar(timeZone: "Europe/Berlin", firstWeekday: 2)!

    /// When every scenario's snapshot is published.
    static let publishedAt = instant("2026-11-25T15:42:20.500+01:00")

    static func instant(_ text: String) -> Instant {
        guard case .instant(let value) = ISO8601Timestamp.parse(text) else {
            preconditionFailure("not an instant with a zone: \(text)")
        }
        return value
    }

    static func tagId(_ number: UInt64) -> EntityID {
        EntityID(high: 0x0000_0000_0000_4000, low: 0xA000_0000_0000_0000 | number)
    }

    static func recordId(_ number: UInt64) -> EntityID {
        EntityID(high: 0x0000_0000_0000_4000, low: 0x8000_0000_0000_0000 | number)
    }

    static let work = Tag(id: tagId(1), name: "Work", color: "#FF9500")
    static let gym = Tag(id: tagId(2), name: "Gym", color: "#34C759")
    /// Every character XML escapes.
    static let special = Tag(id: tagId(3), name: #"R&D <"core"> 'v2'"#, color: "#5856D6")
    /// 63 characters: longer than any widget line.
    static let long = Tag(
        id: tagId(4), name: "Quarterly planning with the extended leadership team & advisors", color: "#007AFF")
    /// Wide characters and an emoji.
    static let reading = Tag(id: tagId(5), name: "読書 📚", color: "#AF52DE")
    static let archived = Tag(id: tagId(6), name: "Old project", color: "#8E8E93", isArchived: true)

    static let tags: [EntityID: Tag] = Dictionary(
        uniqueKeysWithValues: [work, gym, special, long, reading, archived].map { ($0.id, $0) })

    static func record(
        _ number: UInt64, _ start: String, _ end: String? = nil, tag: Tag? = nil, comment: String? = nil
    ) -> Record {
        Record(
            id: recordId(number), start: instant(start), end: end.map(instant), tagId: tag?.id, comment: comment)
    }

    /// Completed records: four today (4:20 in all), two earlier this week, two earlier this month, one
    /// last month.
    static let completed: [Record] = [
        record(1, "2026-11-25T08:30+01:00", "2026-11-25T10:15+01:00", tag: work, comment: "Standup & planning"),
        record(2, "2026-11-25T12:00+01:00", "2026-11-25T12:45+01:00", tag: gym),
        record(3, "2026-11-25T13:00+01:00", "2026-11-25T13:20+01:00"),
        record(4, "2026-11-25T07:00+01:00", "2026-11-25T08:00+01:00", tag: special),
        record(5, "2026-11-23T09:00+01:00", "2026-11-23T12:00+01:00", tag: work),
        record(6, "2026-11-23T20:00+01:00", "2026-11-23T21:30+01:00", tag: reading),
        record(7, "2026-11-10T10:00+01:00", "2026-11-10T13:00+01:00", tag: long),
        record(8, "2026-11-12T10:00+01:00", "2026-11-12T12:00+01:00", tag: archived),
        record(9, "2026-10-30T09:00+01:00", "2026-10-30T12:00+01:00", tag: work),
    ]

    /// The one timer: Work since 14:37:05, 1:05 at publication.
    static let workTimer = record(
        20, "2026-11-25T14:37:05+01:00", tag: work, comment: "Fixing the login bug")

    /// Four timers, oldest first: the long name with a long comment, the XML-special name and comment,
    /// an untagged timer, and the wide-character name.
    static let fourTimerRecords: [Record] = [
        record(
            21, "2026-11-25T13:55:00+01:00", tag: long,
            comment: "Prepare the agenda, the budget slides and the hiring plan for next quarter"),
        record(22, "2026-11-25T14:37:05+01:00", tag: special, comment: #"Review <PR #42> & "merge" 'now'"#),
        record(23, "2026-11-25T15:00:00+01:00"),
        record(24, "2026-11-25T15:30:45+01:00", tag: reading),
    ]

    static let recentTagIds = [work.id, special.id, gym.id, reading.id, long.id, archived.id]

    /// What a scenario's log holds and when its widget is looked at.
    enum Scenario: String, CaseIterable, Sendable {
        /// A new log: no tags, no records.
        case empty
        /// Today's, this week's and this month's completed records; no timer.
        case idle
        /// ``idle`` and the Work timer.
        case oneTimer
        /// ``idle`` and four timers.
        case fourTimers
        /// ``oneTimer``'s snapshot looked at 25 hours after it was published.
        case stale
        /// ``idle``'s snapshot looked at 33 hours after it was published: an idle timeline's entries are at
        /// midnights, so the widget shows the stale caption from the first midnight entry more than 24 hours
        /// after the publication (Friday 00:00, 32 hours), not before.
        case staleIdle

        var source: ProjectionSource {
            switch self {
            case .empty:
                return ProjectionSource(calendar: calendar, tags: [:], records: [], recentTagIds: [])
            case .idle, .staleIdle:
                return ProjectionSource(calendar: calendar, tags: tags, records: completed, recentTagIds: recentTagIds)
            case .oneTimer, .stale:
                return ProjectionSource(
                    calendar: calendar, tags: tags, records: completed + [workTimer], recentTagIds: recentTagIds)
            case .fourTimers:
                return ProjectionSource(
                    calendar: calendar, tags: tags, records: completed + WidgetFixtures.fourTimerRecords,
                    recentTagIds: recentTagIds)
            }
        }

        /// When the widget is looked at: the publication, or 25 (33 when idle) hours later for the stale
        /// scenarios.
        var viewedAt: Instant {
            switch self {
            case .stale: return publishedAt.adding(milliseconds: 25 * 3_600_000)
            case .staleIdle: return publishedAt.adding(milliseconds: 33 * 3_600_000)
            default: return publishedAt
            }
        }

        /// The snapshot published at ``publishedAt``.
        var snapshot: WidgetData {
            WidgetData(source: source, now: publishedAt)
        }

        /// The timeline entry the widget shows at ``viewedAt``.
        var entry: WidgetTimelineEntry {
            WidgetTimelineBuilder.entry(for: snapshot, publishedAt: publishedAt, at: viewedAt, calendar: calendar)!
        }
    }
}
