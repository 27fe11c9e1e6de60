import Testing

@testable import StintCore

/// The merge of devices' sequences into one order, on the simulated histories of `SkewedDevices`.
@Suite struct MergeOrderTests {
    @Test(arguments: HLCCausalityTests.seeds)
    func mergeIsTheSortByKeyWhateverTheOrderOfTheDevices(seed: UInt64) throws {
        print("MergeOrderTests seed \(seed) (re-run with STINT_TEST_SEED=\(seed))")
        var simulation = SkewedDevices(seed: seed, devices: 2 + Int(seed % 4))
        try simulation.run(steps: HLCCausalityTests.steps)
        let sorted = simulation.events.sorted { simulation.key($0) < simulation.key($1) }
        var random = SplitMix64(seed: seed ^ 0x3E4)
        for _ in 0..<10 {
            let sequences = simulation.logs.shuffled(using: &random)
            let merged = try MergeOrder.merge(sequences, key: simulation.key)
            #expect(merged == sorted, "seed \(seed)")
        }
    }

    @Test(arguments: HLCCausalityTests.seeds)
    func aBatchStaysWholeInTheMergedOrder(seed: UInt64) throws {
        var simulation = SkewedDevices(seed: seed, devices: 4)
        try simulation.run(steps: HLCCausalityTests.steps)
        let merged = try MergeOrder.merge(simulation.logs, key: simulation.key)
        for (previous, event) in zip(merged, merged.dropFirst()) where event.batch != event.seq {
            #expect(previous.device == event.device && previous.seq == event.seq - 1, "seed \(seed)")
        }
    }

    @Test func emptySequencesAndNoSequencesMerge() throws {
        #expect(try MergeOrder.merge([[MergeKey]](), key: { $0 }).isEmpty)
        let only = [Self.key(5, device: 1, seq: 1)]
        #expect(try MergeOrder.merge([[], only, []], key: { $0 }) == only)
    }

    static func key(_ milliseconds: Int64, _ counter: UInt32 = 0, device: UInt64, seq: Int64) -> MergeKey {
        MergeKey(
            hlc: HLC(milliseconds: milliseconds, counter: counter)!, device: DeviceID(high: device, low: 0), seq: seq)
    }

    @Test(arguments: [
        // The hlc goes back.
        [Self.key(5, device: 1, seq: 1), Self.key(4, device: 1, seq: 2)],
        // The seq does not increase.
        [Self.key(5, device: 1, seq: 2), Self.key(6, device: 1, seq: 2)],
        [Self.key(5, device: 1, seq: 2), Self.key(6, device: 1, seq: 1)],
        // Another device's event inside a device's sequence.
        [Self.key(5, device: 1, seq: 1), Self.key(6, device: 2, seq: 2)],
    ])
    func aSequenceOutOfOrderIsRefusedNamingTheEvent(sequence: [MergeKey]) {
        do {
            let merged = try MergeOrder.merge([sequence, [Self.key(1, device: 3, seq: 1)]], key: { $0 })
            Issue.record("merged \(merged)")
        } catch {
            #expect(error.code == .sequenceOutOfOrder)
            #expect(error.message.contains(sequence[1].description))
        }
    }

    @Test func twoSequencesOfOneDeviceAreRefused() {
        #expect(
            throws: SyncError(
                .duplicateDevice, "two sequences of events of device \(DeviceID(high: 1, low: 0)) were merged")
        ) {
            try MergeOrder.merge([[Self.key(1, device: 1, seq: 1)], [Self.key(2, device: 1, seq: 2)]], key: { $0 })
        }
    }

    @Test func mergeKeysCompareByReadingThenDeviceThenSeq() {
        #expect(Self.key(1, 5, device: 9, seq: 9) < Self.key(2, 0, device: 1, seq: 1))
        #expect(Self.key(2, 0, device: 1, seq: 9) < Self.key(2, 0, device: 2, seq: 1))
        #expect(Self.key(2, 0, device: 2, seq: 1) < Self.key(2, 0, device: 2, seq: 2))
    }
}

/// The frontier's canonical bytes, which `verify --merged` hashes.
@Suite struct FrontierTests {
    static let a = DeviceID("0000000000000000000000000000000a")!
    static let b = DeviceID("b0000000000000000000000000000000")!
    static let hashA = String(repeating: "1", count: 64)
    static let hashB = String(repeating: "2", count: 64)

    @Test func canonicalBytesListTheDevicesInIdOrder() {
        var frontier = Frontier()
        frontier.heads[Self.b] = .init(seq: 3, hash: Self.hashB)
        frontier.heads[Self.a] = .init(seq: 12, hash: Self.hashA)
        let expected =
            "{\"frontier\":1,\"devices\":[[\"0000000000000000000000000000000a\",12,\"\(Self.hashA)\"],"
            + "[\"b0000000000000000000000000000000\",3,\"\(Self.hashB)\"]]}"
        #expect(String(decoding: frontier.canonicalBytes, as: UTF8.self) == expected)
        #expect(String(decoding: Frontier().canonicalBytes, as: UTF8.self) == "{\"frontier\":1,\"devices\":[]}")
        // printf '{"frontier":1,"devices":[]}' | sha256sum
        #expect(Frontier().hash == "ca69f50944f32eb6762e0301b88f4da287c145d2ffc188c13f362f5b89c77e61")
    }

    @Test func theBytesDependOnlyOnTheHeads() {
        var random = SplitMix64(seed: 0xF407)
        var heads: [(DeviceID, Frontier.Head)] = []
        for seq in 1...6 { heads.append((DeviceID(using: &random), .init(seq: Int64(seq), hash: Self.hashA))) }
        var reference = Frontier()
        for (device, head) in heads { reference.heads[device] = head }
        for _ in 0..<10 {
            var frontier = Frontier()
            for (device, head) in heads.shuffled(using: &random) { frontier.heads[device] = head }
            #expect(frontier.canonicalBytes == reference.canonicalBytes)
        }
        var behind = reference
        behind.heads[heads[0].0] = .init(seq: 0, hash: Self.hashB)
        #expect(behind.canonicalBytes != reference.canonicalBytes)
        #expect(behind.hash != reference.hash)
        var missing = reference
        missing.heads[heads[0].0] = nil
        #expect(missing.canonicalBytes != reference.canonicalBytes)
    }
}
