extension MergeKey {
    /// The form merged checkpoints and a replica's read models keep a merge key in: `[[ms, counter], device,
    /// seq]`.
    public var json: JSON { .array([hlc.json, device.json, .int(seq)]) }

    /// Reads ``json``'s form; nil for anything else.
    public init?(json: JSON) {
        guard let key = json.arrayValue, key.count == 3, let hlc = try? HLC(json: key[0]),
            let device = try? DeviceID(json: key[1]), let seq = key[2].intValue
        else { return nil }
        self.init(hlc: hlc, device: device, seq: seq)
    }
}
