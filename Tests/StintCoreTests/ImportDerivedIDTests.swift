import Testing

@testable import StintCore

/// The name-based ids of imported records: SHA-256 and the RFC 9562 UUIDv8 construction. The expected
/// values come from FIPS 180-4, RFC 9562 and Python's hashlib (`python3 -c 'import hashlib; …'`).
@Suite struct ImportDerivedIDTests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { String($0, radix: 16).count == 1 ? "0" + String($0, radix: 16) : String($0, radix: 16) }.joined()
    }

    @Test(arguments: [
        ("", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"),
        ("abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"),
        (
            "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
            "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"
        ),
        (String(repeating: "a", count: 55), "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"),
        (String(repeating: "a", count: 56), "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"),
        (String(repeating: "a", count: 63), "7d3e74a05d7db15bce4ad9ec0658ea98e3f06eeecf16b4c6fff2da457ddc2f34"),
        (String(repeating: "a", count: 64), "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"),
        (String(repeating: "a", count: 119), "31eba51c313a5c08226adf18d4a359cfdfd8d2e816b13f4af952f7ea6584dcfb"),
        ("ünïcode ✓", "1105f022f3f3c250ee3b45ff0692bcf4042772b0199a4cbe4e419b3ebb29df9f"),
    ])
    func sha256MatchesKnownDigests(message: String, digest: String) {
        #expect(Self.hex(SHA256.hash(Array(message.utf8))) == digest)
    }

    @Test func derivedIdFollowsRFC9562AppendixB2() {
        let dns = EntityID("6ba7b810-9dad-11d1-80b4-00c04fd430c8")!
        #expect(
            EntityID.derived(namespace: dns, name: Array("www.example.com".utf8))
                == EntityID("5c146b14-3c52-8afd-938a-375d0df1fbf6"))
    }

    /// These ids are part of the format: records imported by one version must keep their ids in the next.
    @Test(arguments: [
        (ImportSystem.timewarrior, "2026-10-26T13:00:00.000Z", "f4d68c94-4de0-8a23-9046-2856df7dfdd5"),
        (ImportSystem.watson, "88d0209237fd450b90b26c552021deb3", "acb15960-e7df-8157-b840-b973d0e21497"),
        (ImportSystem.watson, "running/2026-11-28T13:00:00.000Z/clientA", "522bf8fc-1d9e-80f1-a06f-1f227ab9f339"),
    ])
    func derivedIdsOfImportedRecordsNeverChange(system: ImportSystem, identity: String, id: String) {
        #expect(EntityID.derived(source: system, identity: identity) == EntityID(id))
    }

    @Test func namespacesAreDerivedFromTheImportRoot() {
        #expect(ImportSystem.timewarrior.namespace == EntityID("5e523caf-2409-8546-9a43-f9ae819da28a"))
        #expect(ImportSystem.watson.namespace == EntityID("197de742-1679-8314-9f43-97580165c372"))
    }

    @Test func theSameIdentityInTwoSystemsGivesTwoIds() {
        let identity = "2026-10-26T13:00:00.000Z"
        #expect(
            EntityID.derived(source: .timewarrior, identity: identity)
                != EntityID.derived(source: .watson, identity: identity))
    }

    /// Seeded: 2 000 pseudo-random identities give 2 000 ids, all version 8, variant 10.
    @Test func derivedIdsAreDistinctAndCarryVersionAndVariant() {
        var seed: UInt64 = 0x5EED_1D5
        print("derivedIdsAreDistinctAndCarryVersionAndVariant seed: \(seed)")
        var ids = Set<EntityID>()
        for _ in 0..<2000 {
            seed = seed &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            let id = EntityID.derived(source: .watson, identity: String(seed >> 1, radix: 16))
            #expect(id.high >> 12 & 0xF == 8)
            #expect(id.low >> 62 == 0b10)
            ids.insert(id)
        }
        #expect(ids.count == 2000)
    }
}
