/// One event of a merged history, as conflicts name it: its device and its `seq` in that device's log.
///
/// Written `9f8e7d6c:12` (the device's first eight hex digits); an event without a device (a log of format
/// 1, one implicit device) is written `local:12`.
public struct EventRef: Hashable, Sendable, CustomStringConvertible {
    /// The device that wrote the event; nil for an event of a log without devices.
    public var device: DeviceID?
    /// The event's `seq` in its device's log.
    public var seq: Int64
    /// The event's place in the merged order (1 for the first event folded): what "earlier" means.
    public var position: Int64

    public init(device: DeviceID?, seq: Int64, position: Int64) {
        self.device = device
        self.seq = seq
        self.position = position
    }

    public var description: String {
        "\(device.map(\.short) ?? "local"):\(seq)"
    }

    /// The full form for JSON: the whole device id (or null) and the seq.
    public var json: JSON {
        .object([JSONField("device", device.map { .string($0.description) } ?? .null), JSONField("seq", .int(seq))])
    }
}
