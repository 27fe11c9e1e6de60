import StintCore
@_spi(FaultInjection) import StintLog
import Testing

@_spi(FaultInjection) @testable import StintEngine

/// A replica's `compared` file reads back exactly what was written, and nothing else.
@Suite struct ComparedCopiesTests {
    private func sample() throws -> ComparedCopies {
        var copies = ComparedCopies()
        for n in 1...3 {
            let line =
                "\(String(format: "%020d", n * 1000)).jsonl.zst 2049:\(n):4096:10:11 2049:7:1234:12:13 "
                + "2049:8:4096:14:15 2049:9:1234:16:17"
            copies.vouches[DeviceID(high: UInt64(n), low: 1)] = try #require(LastSegmentVouch(line: Substring(line)))
        }
        return copies
    }

    @Test func theFileRoundTrips() throws {
        let copies = try sample()
        #expect(ComparedCopies(bytes: copies.bytes) == copies)
        #expect(ComparedCopies(bytes: ComparedCopies().bytes) == ComparedCopies())
        #expect(String(decoding: copies.bytes, as: UTF8.self).hasPrefix("stint-compared 1\n"))
    }

    @Test func anyOtherBytesAreNothing() throws {
        let bytes = try sample().bytes
        #expect(ComparedCopies(bytes: Array(bytes.dropLast())) == nil, "torn")
        #expect(ComparedCopies(bytes: []) == nil)
        var flipped = bytes
        flipped[bytes.count / 3] ^= 0x01
        #expect(ComparedCopies(bytes: flipped) == nil, "caught by the digest")
        let text = String(decoding: DigestSealedText.body(of: bytes)!, as: UTF8.self)
        for broken in [
            text.replacingOccurrences(of: "stint-compared 1", with: "stint-compared 2"),
            text.replacingOccurrences(of: ":10:11", with: ":10"), text + "not-a-device x\n",
        ] {
            #expect(ComparedCopies(bytes: DigestSealedText.seal(Array(broken.utf8))) == nil, "\(broken.prefix(40))")
        }
    }
}
