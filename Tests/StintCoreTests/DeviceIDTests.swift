import Testing

@testable import StintCore

@Suite struct DeviceIDTests {
    @Test func textRoundTripsAndIsLowercaseHex() throws {
        var random = SplitMix64(seed: 0xDE71CE)
        for _ in 0..<200 {
            let id = DeviceID(using: &random)
            let text = id.description
            #expect(text.utf8.count == 32)
            #expect(text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) })
            #expect(DeviceID(text) == id)
            #expect(try DeviceID(json: id.json) == id)
        }
        #expect(
            DeviceID(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210).description
                == "0123456789abcdeffedcba9876543210")
    }

    @Test func idsCompareAsTheirText() {
        var random = SplitMix64(seed: 0x0D3E)
        let ids = (0..<100).map { _ in
            // Share the first half often, so that the second half decides.
            Bool.random(using: &random)
                ? DeviceID(high: 42, low: random.next()) : DeviceID(using: &random)
        }
        #expect(ids.sorted().map(\.description) == ids.map(\.description).sorted())
    }

    @Test func aSeededGeneratorGivesTheSameIds() {
        var first = SplitMix64(seed: 99)
        var second = SplitMix64(seed: 99)
        #expect(DeviceID(using: &first) == DeviceID(using: &second))
        #expect(DeviceID(using: &first) != DeviceID(using: &first))
    }

    @Test(arguments: [
        "", "0123456789abcdef0123456789abcde", "0123456789abcdef0123456789abcdef0",
        "0123456789ABCDEF0123456789ABCDEF", "0123456789abcdef0123456789abcdeF", "3f2a9c4e-0b1d-4c6e-9f00-5a7b8c9d0e1f",
        " 0123456789abcdef0123456789abcde", "0123456789abcdef0123456789abcdeg", "0x23456789abcdef0123456789abcdef",
        "０123456789abcdef0123456789abcde",
    ])
    func parserRefusesAnythingButThirtyTwoLowercaseHexDigits(text: String) {
        #expect(DeviceID(text) == nil)
        #expect(throws: SyncError.self) { try DeviceID(json: .string(text)) }
    }

    @Test func jsonOtherThanAStringIsRefused() {
        for json: JSON in [.null, .int(1), .array([.string("0123456789abcdef0123456789abcdef")])] {
            do {
                _ = try DeviceID(json: json)
                Issue.record("\(json) was read as a device id")
            } catch {
                #expect(error.code == .invalidDeviceID)
            }
        }
    }
}
