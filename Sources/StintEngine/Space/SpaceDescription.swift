public import StintCore

/// What `space.json` in a space's sync folder says (docs/decisions/0007 §1.1): the space's id and the
/// settings every device's log must have, as the canonical JSON
/// `{"space":1,"spaceId":"<uuid>","timeZone":"<iana>","firstWeekday":<1-7>}`.
public struct SpaceDescription: Hashable, Sendable {
    /// The version of the file's layout.
    public static let version: Int64 = 1
    /// The name of the file in the sync folder.
    public static let fileName = "space.json"

    /// The founding log's `logId`.
    public var spaceId: EntityID
    public var timeZone: String
    public var firstWeekday: Int

    /// The description of the space a log with `settings` founds.
    public init(founding settings: LogSettings) {
        spaceId = settings.logId
        timeZone = settings.calendar.timeZoneIdentifier
        firstWeekday = settings.calendar.firstWeekday
    }

    /// The canonical bytes of `space.json` (no newline).
    public var canonicalBytes: [UInt8] {
        JSON.object([
            "space": .int(SpaceDescription.version), "spaceId": .string(spaceId.uuidString),
            "timeZone": .string(timeZone), "firstWeekday": .int(Int64(firstWeekday)),
        ]).encoded()
    }

    /// Reads the bytes of a `space.json`.
    ///
    /// - Throws: ``StintError`` (damaged) for bytes that are not the canonical form of a description of
    ///   version 1 (naming `file`).
    public init(bytes: [UInt8], file: String) throws(StintError) {
        let damaged = StintError(
            .damaged,
            "\(file) is not a space description of this Stint (the JSON object {\"space\":1,\"spaceId\":…,"
                + "\"timeZone\":…,\"firstWeekday\":…} that 'stint sync init' writes)")
        guard let json = try? JSON.parse(bytes), json["space"]?.intValue == SpaceDescription.version,
            let id = json["spaceId"]?.stringValue.flatMap({ EntityID($0) }), let zone = json["timeZone"]?.stringValue,
            let weekday = json["firstWeekday"]?.intValue, (1...7).contains(weekday)
        else { throw damaged }
        spaceId = id
        timeZone = zone
        firstWeekday = Int(weekday)
        guard canonicalBytes == bytes else { throw damaged }
    }

    /// Refuses a log whose settings are not the space's: the folder holds another space.
    ///
    /// - Throws: ``StintError`` (damaged) naming the folder.
    func check(_ settings: LogSettings, folder: String) throws(StintError) {
        guard SpaceDescription(founding: settings) == self else {
            throw StintError(
                .damaged,
                "the folder \(folder) holds another space (\(spaceId), \(timeZone)) than the one this log is part of "
                    + "(\(settings.logId), \(settings.calendar.timeZoneIdentifier)); check the folder the log's "
                    + "'space' file names")
        }
    }
}
