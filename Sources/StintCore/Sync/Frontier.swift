/// What a replica holds of a space: for each device, the last event it has of that device's log and the hash
/// of that event's line (log-format §3), which commits to every event of the device up to it.
///
/// Two replicas with equal frontiers hold the same events, so they fold to byte-identical outputs;
/// `stint verify --merged` prints ``hash``, the SHA-256 of ``canonicalBytes``, as the frontier hash
/// (docs/decisions/0007-multi-device-sync.md). It is computed with StintCore's own SHA-256 (the one derived
/// ids use), so any reader can recompute it from the heads with a stock SHA-256.
public struct Frontier: Hashable, Sendable {
    /// The last event a replica holds of one device.
    public struct Head: Hashable, Sendable {
        /// The `seq` of the device's last event held.
        public var seq: Int64
        /// The SHA-256 of that event's line with its newline, 64 lowercase hex digits.
        public var hash: String

        public init(seq: Int64, hash: String) {
            self.seq = seq
            self.hash = hash
        }
    }

    /// The version of ``canonicalBytes``' layout.
    public static let version: Int64 = 1

    /// The head held of each device; a device of which nothing is held is absent.
    public var heads: [DeviceID: Head]

    public init(heads: [DeviceID: Head] = [:]) {
        self.heads = heads
    }

    /// The bytes the frontier hash is the SHA-256 of: the canonical JSON
    /// `{"frontier":1,"devices":[["<device>",<seq>,"<hash>"],…]}`, devices in ascending id order, so the bytes
    /// depend only on the heads, never on the order they were learned in.
    public var canonicalBytes: [UInt8] {
        let devices = heads.keys.sorted().map { device -> JSON in
            let head = heads[device]!
            return .array([device.json, .int(head.seq), .string(head.hash)])
        }
        return JSON.object(["frontier": .int(Frontier.version), "devices": .array(devices)]).encoded()
    }

    /// The frontier hash: the SHA-256 of ``canonicalBytes``, 64 lowercase hex digits.
    public var hash: String {
        let digits = Array("0123456789abcdef".utf8)
        var text = [UInt8]()
        for byte in SHA256.hash(canonicalBytes) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0xF)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
