/// Appends the little-endian fields of a compact checkpoint.
struct CompactCheckpointWriter {
    private(set) var bytes: [UInt8] = []

    init(capacity: Int) { bytes.reserveCapacity(capacity) }

    mutating func u8(_ value: UInt8) { bytes.append(value) }

    mutating func u32(_ value: Int) {
        let value = UInt32(truncatingIfNeeded: value)
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func i64(_ value: Int64) {
        withUnsafeBytes(of: value.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func id(_ value: EntityID) {
        withUnsafeBytes(of: value.high.littleEndian) { bytes.append(contentsOf: $0) }
        withUnsafeBytes(of: value.low.littleEndian) { bytes.append(contentsOf: $0) }
    }

    mutating func string(_ value: String) {
        u32(value.utf8.count)
        bytes.append(contentsOf: value.utf8)
    }

    mutating func raw(_ value: [UInt8]) {
        u32(value.count)
        bytes.append(contentsOf: value)
    }
}
