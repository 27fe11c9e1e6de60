import StintCore

/// Hand-readable values for the projection tests: instants written with their offsets, fixed ids, calendars.
enum ProjectionFixtures {
    /// Parses an ISO 8601 instant with a zone (`2026-03-08T00:00-05:00`, `2026-11-29T13:07:09.123Z`).
    static func instant(_ text: String) -> Instant {
        guard case .instant(let value) = ISO8601Timestamp.parse(text) else {
            preconditionFailure("not an instant with a zone: \(text)")
        }
        return value
    }

    static func id(_ text: String) -> EntityID {
        guard let value = EntityID(text) else { preconditionFailure("not a UUID: \(text)") }
        return value
    }

    static let newYorkSunday = LogCalendar(timeZone: "America/New_York", firstWeekday: 1)!
    static let berlinMonday = LogCalendar(timeZone: "Europe/Berlin", firstWeekday: 2)!
    static let santiagoMonday = LogCalendar(timeZone: "America/Santiago", firstWeekday: 2)!
    static let utcMonday = LogCalendar.utc

    // Tag ids sort in the order of their last digit.
    static let archivedId = id("00000000-0000-4000-a000-000000000001")
    static let workId = id("00000000-0000-4000-a000-000000000002")
    static let gymId = id("00000000-0000-4000-a000-000000000003")
    static let deletedId = id("00000000-0000-4000-a000-000000000004")
    static let homeId = id("00000000-0000-4000-a000-000000000005")
    static let readingId = id("00000000-0000-4000-a000-000000000006")
    static let musicId = id("00000000-0000-4000-a000-000000000007")
    static let unknownId = id("00000000-0000-4000-a000-0000000000ff")

    static let archived = Tag(id: archivedId, name: "Archive", color: "#111111", isArchived: true)
    static let work = Tag(id: workId, name: "Work", color: "#FF0000")
    static let gym = Tag(id: gymId, name: "Gym", color: "#00FF00")
    static let deleted = Tag(id: deletedId, name: "Gone", color: "#444444", isDeleted: true)
    static let home = Tag(id: homeId, name: "Home", color: "#0000FF")
    static let reading = Tag(id: readingId, name: "Reading", color: "#666666")
    static let music = Tag(id: musicId, name: "Music", color: "#777777")

    static let allTags: [EntityID: Tag] = Dictionary(
        uniqueKeysWithValues: [archived, work, gym, deleted, home, reading, music].map { ($0.id, $0) })

    /// Record ids: `00000000-0000-4000-8000-0000000000NN` with NN the given number in hex.
    static func recordId(_ number: UInt64) -> EntityID {
        EntityID(high: 0x0000_0000_0000_4000, low: 0x8000_0000_0000_0000 | number)
    }

    static func record(
        _ number: UInt64, _ start: String, _ end: String? = nil, tag: EntityID? = nil, comment: String? = nil
    ) -> Record {
        Record(
            id: recordId(number), start: instant(start), end: end.map(instant), tagId: tag, comment: comment)
    }
}
