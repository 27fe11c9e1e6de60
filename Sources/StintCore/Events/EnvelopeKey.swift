/// The members of an event's envelope, in their canonical order (docs/log-format.md §2), declared once:
/// the line encoder, the canonical decoder and the general decoder take their names and the byte sequences
/// around them from here.
enum EnvelopeKey: String, CaseIterable, Sendable {
    case seq, at, type
    case version = "v"
    case tx, clock, device, hlc, prev, data

    /// Whether the member may be left out (docs/log-format.md §2: `tx`, `clock`, and `device` and `hlc`, which
    /// come as a pair in log format 2); the others are required.
    var isOptional: Bool {
        switch self {
        case .tx, .clock, .device, .hlc: return true
        case .seq, .at, .type, .version, .prev, .data: return false
        }
    }

    /// The bytes before the member's value: `{"seq":` for the first member, `,"name":` for the others.
    var lead: [UInt8] { Array(((self == .seq ? "{" : ",") + "\"" + rawValue + "\":").utf8) }

    /// ``lead`` followed by the opening quote of a string value: `,"at":"`.
    var leadQuoted: [UInt8] { lead + [0x22] }

    /// The closing quote of the string value before it, then ``lead``: `","type":`.
    var afterQuoted: [UInt8] { [0x22] + lead }
}
