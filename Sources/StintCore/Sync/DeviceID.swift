/// The identity of one installation of Stint that writes into a sync space: 128 random bits, written as
/// 32 lowercase hexadecimal digits (`3f2a9c4e0b1d4c6e9f005a7b8c9d0e1f`).
///
/// Not a UUID, so that it is never taken for a record or tag id where both can be typed (`--seq DEVICE:N`,
/// `--as-known-by DEVICE`); lowercase only, so that a directory `devices/<id>/` names one device on a file
/// system that ignores case too. Ids compare as their text does (the merge order's tie-break), which is the
/// order of (``high``, ``low``). The bits come from a generator the caller passes: StintCore reads no system
/// randomness (docs/decisions/0007-multi-device-sync.md).
public struct DeviceID: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The first 64 bits (the first 16 digits).
    public let high: UInt64
    /// The last 64 bits.
    public let low: UInt64

    public init(high: UInt64, low: UInt64) {
        self.high = high
        self.low = low
    }

    /// A new id from 128 bits of `generator`, which must be unpredictable in production (the engine passes
    /// the system's generator) and may be seeded in tests.
    public init(using generator: inout some RandomNumberGenerator) {
        self.init(high: generator.next(), low: generator.next())
    }

    /// Parses exactly 32 lowercase hexadecimal digits; nil for anything else (uppercase, dashes, whitespace).
    public init?(_ text: some StringProtocol) {
        let bytes = Array(text.utf8)
        guard bytes.count == 32 else { return nil }
        var high: UInt64 = 0
        var low: UInt64 = 0
        for (index, byte) in bytes.enumerated() {
            let nibble: UInt64
            switch byte {
            case 0x30...0x39: nibble = UInt64(byte - 0x30)
            case 0x61...0x66: nibble = UInt64(byte - 0x61 + 10)
            default: return nil
            }
            if index < 16 { high = high << 4 | nibble } else { low = low << 4 | nibble }
        }
        self.init(high: high, low: low)
    }

    public static func < (lhs: DeviceID, rhs: DeviceID) -> Bool {
        (lhs.high, lhs.low) < (rhs.high, rhs.low)
    }

    /// The 32 lowercase hexadecimal digits.
    public var description: String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(32)
        appendHex(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the 32 lowercase hexadecimal digits (the line encoder's form, without quotes).
    func appendHex(to output: inout [UInt8]) {
        for word in [high, low] {
            for shift in stride(from: 60, through: 0, by: -4) {
                let nibble = UInt8(truncatingIfNeeded: word >> UInt64(shift)) & 0xF
                output.append(nibble < 10 ? 0x30 + nibble : 0x61 - 10 + nibble)
            }
        }
    }

    /// The envelope's form: the id as a string.
    public var json: JSON { .string(description) }

    /// Reads the envelope's form strictly.
    ///
    /// - Throws: ``SyncError/Code/invalidDeviceID`` for anything but a string of 32 lowercase hex digits.
    public init(json: JSON) throws(SyncError) {
        guard let text = json.stringValue, let id = DeviceID(text) else {
            throw SyncError(.invalidDeviceID, "\"device\" must be 32 lowercase hexadecimal digits")
        }
        self = id
    }
}

extension DeviceID {
    /// The first 8 hex digits, as listings and messages show a device.
    public var short: String { String(description.prefix(8)) }
}
