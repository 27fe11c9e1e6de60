/// The members of an event's envelope, in their canonical order (docs/log-format.md §2), declared once:
/// the line encoder, the canonical decoder and the general decoder take their names and the byte sequences
/// around them from here.
enum EnvelopeKey: String, CaseIterable, Sendable {
    case seq, at, type
    case version = "v"
    case tx, clock, prev, data

    /// Whether the member may be left out (docs/log-format.md §2: `tx` and `clock`); the others are required.
    var isOptional: Bool { self == .tx || self == .clock }

    /// The bytes before the member's value: `{"seq":` for the first member, `,"name":` for the others.
    var lead: [UInt8] { Array(((self == .seq ? "{" : ",") + "\"" + rawValue + "\":").utf8) }

    /// ``lead`` followed by the opening quote of a string value: `,"at":"`.
    var leadQuoted: [UInt8] { lead + [0x22] }

    /// The closing quote of the string value before it, then ``lead``: `","type":`.
    var afterQuoted: [UInt8] { [0x22] + lead }
}
