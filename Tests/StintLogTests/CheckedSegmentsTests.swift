import Testing

@_spi(FaultInjection) @testable import StintLog

/// The `checked` file (docs/log-format.md §5.4) reads back exactly what was written, and nothing else.
@Suite struct CheckedSegmentsTests {
    static func sample() -> CheckedSegments {
        var checked = CheckedSegments()
        checked.entries["00000000000000000001.jsonl.zst"] = CheckedSegments.Entry(
            sealed: true, size: 308_055, lastSeq: 6225, lastLineDigest: SHA256Digest(of: Array("a\n".utf8)),
            digest: SHA256Digest(of: Array("segment".utf8)),
            fingerprint: FileFingerprint(
                device: UInt64.max - 3, inode: 1_234_567, size: 308_055, modified: 1_764_800_000_123_456_789,
                changed: 1_764_800_000_987_654_321), settled: true)
        checked.entries["00000000000000006226.jsonl.zst"] = CheckedSegments.Entry(
            sealed: false, size: 27_372, lastSeq: 6240, lastLineDigest: SHA256Digest(of: Array("b\n".utf8)),
            digest: SHA256Digest(of: Array("active".utf8)), fingerprint: nil, settled: false)
        return checked
    }

    @Test func theFileRoundTrips() {
        let checked = Self.sample()
        #expect(CheckedSegments(bytes: checked.bytes) == checked)
        #expect(CheckedSegments(bytes: CheckedSegments().bytes) == CheckedSegments())
        let text = String(decoding: checked.bytes, as: UTF8.self)
        #expect(text.hasPrefix("stint-checked 1\n00000000000000000001.jsonl.zst sealed 308055 6225 "))
        #expect(text.contains(" - racy\n"))
    }

    /// One segment's entry, read from its line alone, is the one the whole file gives, or none.
    @Test func oneEntryIsTheWholeFilesEntryOfThatSegment() {
        var checked = Self.sample()
        for n in 2...40 {
            let name = String(format: "%020d.jsonl.zst", n * 10_000)
            checked.entries[name] = checked.entries["00000000000000000001.jsonl.zst"]
            checked.entries[name]?.lastSeq = Int64(n)
        }
        let bytes = checked.bytes
        for (name, entry) in checked.entries {
            #expect(CheckedSegments.entry(named: name, inBytes: bytes) == entry, "\(name)")
        }
        #expect(CheckedSegments.entry(named: "00000000000000000002.jsonl.zst", inBytes: bytes) == nil)
        #expect(CheckedSegments.entry(named: "0000000000000000000", inBytes: bytes) == nil, "a name's prefix")
        #expect(CheckedSegments.entry(named: "00000000000000006226.jsonl.zst", inBytes: CheckedSegments().bytes) == nil)
        #expect(CheckedSegments.entry(named: "00000000000000006226.jsonl.zst", inBytes: Array(bytes.dropLast())) == nil)
        var flipped = bytes
        flipped[bytes.count / 2] ^= 0x01
        #expect(CheckedSegments.entry(named: "00000000000000006226.jsonl.zst", inBytes: flipped) == nil)
        // A line that is not of the form, sealed with a good digest, is nothing.
        let text = String(decoding: DigestSealedText.body(of: bytes)!, as: UTF8.self)
        let broken = text.replacingOccurrences(of: " - racy", with: " - maybe")
        #expect(
            CheckedSegments.entry(
                named: "00000000000000006226.jsonl.zst", inBytes: DigestSealedText.seal(Array(broken.utf8)))
                == nil)
    }

    @Test func anyOtherBytesAreNothing() {
        let bytes = Self.sample().bytes
        #expect(CheckedSegments(bytes: Array(bytes.dropLast())) == nil, "torn")
        #expect(CheckedSegments(bytes: []) == nil)
        for index in Swift.stride(from: 0, to: bytes.count, by: 7) {
            var flipped = bytes
            flipped[index] ^= 0x01
            #expect(CheckedSegments(bytes: flipped) == nil, "a flip at \(index) is caught by the digest")
        }
    }
}
