import StintCore
import StintLog

/// Where a lane of the merged history can start reading the own log right after one of its events, instead
/// of reading that event's segment from its start (decision 0010, step 0b): the byte after the event's frame in
/// the active segment, as the log's writer knew it under the own log's lock (every byte before it checked as
/// the writer opened, or written by it).
///
/// The bytes before the offset stay as they are while that segment is the writer's active one: appends add
/// frames after them (several frames at once through a copy, checked against the writer's digest of them), and
/// only sealing replaces them, after which the writer's active segment is another. The lane checks the chain on
/// from the event, as a read from the start would have reached it.
struct LaneResumePoint {
    var event: RecordedEvent
    var head: LogHead
    var segment: String
    var offset: Int64

    /// The point at the end of a log as its writer knows it; nil when the writer does not know its last event,
    /// or the log ends with a sealed segment.
    init?(lastWritten: (event: RecordedEvent, head: LogHead)?, activeEnd: (segment: String, size: Int64)?) {
        guard let lastWritten, let activeEnd else { return nil }
        event = lastWritten.event
        head = lastWritten.head
        segment = activeEnd.segment
        offset = activeEnd.size
    }

    /// Whether the writer whose active segment is now `activeEnd` still holds this point's bytes.
    func holds(activeEnd: (segment: String, size: Int64)?) -> Bool {
        guard let activeEnd else { return false }
        return activeEnd.segment == segment && activeEnd.size >= offset
    }
}
