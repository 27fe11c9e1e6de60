extension DeviceID {
    /// The id of the device that fork-off makes of `device`'s branch from `seq` on (docs/decisions/0007 §6.3):
    /// the first 128 bits of SHA-256 of `"stint-fork\n" + device + "\n" + seq + "\n" + lineHash`, where
    /// `lineHash` is the SHA-256 (64 lowercase hex digits) of that branch's line at `seq`. Every replica that
    /// holds the same branch derives the same id without talking to the others.
    public static func forked(from device: DeviceID, at seq: Int64, lineHash: String) -> DeviceID {
        let digest = SHA256.hash(Array("stint-fork\n\(device)\n\(seq)\n\(lineHash)".utf8))
        let high = digest[0..<8].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        let low = digest[8..<16].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return DeviceID(high: high, low: low)
    }
}
