/// The bounds a reader enforces before allocating anything a frame header asks for.
enum FrameLimits {
    /// The largest decompressed content of one data frame: 256 MiB.
    static let maximumContentSize: Int64 = 256 << 20
    /// The largest window a data frame may declare: 2^27 bytes (`ZSTD_d_windowLogMax` = 27).
    static let maximumWindowLog: Int32 = 27
    /// The largest block a zstd frame may hold (the format's `Block_Maximum_Size` bound).
    static let maximumBlockSize = 128 << 10
    /// The largest seal frame payload accepted: 16 MiB, about a million indexed frames.
    static let maximumSealPayload = 16 << 20
    /// The magic number of a zstd data frame.
    static let dataMagic: UInt32 = 0xFD2F_B528
    /// The magic number of Stint's seal frame (a skippable frame).
    static let sealMagic: UInt32 = 0x184D_2A5E

    /// Whether `magic` is the magic number of a skippable frame: 0x184D2A50 to 0x184D2A5F (RFC 8878 §3.1.2).
    static func isSkippable(_ magic: UInt32) -> Bool {
        magic & 0xFFFF_FFF0 == 0x184D_2A50
    }
}
