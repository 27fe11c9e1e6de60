/// The settings a log carries in its first event: its identity and the calendar its days are computed in.
public struct LogSettings: Hashable, Sendable {
    /// The log format version this build writes.
    public static let currentFormat = 1

    public var logId: EntityID
    public var calendar: LogCalendar
    public var format: Int

    public init(logId: EntityID, calendar: LogCalendar, format: Int = LogSettings.currentFormat) {
        self.logId = logId
        self.calendar = calendar
        self.format = format
    }
}
