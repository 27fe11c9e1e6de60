import Testing

@testable import StintCore

/// ``MergedFold/StampColumns`` gives back every record's stamps as they were set, through random sets that
/// move records between the compact form (setters but the end equal to the creator) and the side array, drop
/// and bring back setters, and have no creator.
@Suite struct StampColumnsTests {
    @Test(arguments: [UInt64(0x57A0_0001), 0x57A0_0002])
    func itGivesBackWhatWasSet(seed: UInt64) {
        var random = SplitMix64(seed: seed)
        func stamp() -> MergedFold.Stamp {
            MergedFold.Stamp(
                device: Int(random.next() % 3), seq: Int64(random.next() % 50) + 1,
                position: Int64(random.next() % 3) + 1)
        }
        func stamps() -> MergedFold.RecordStamps {
            let created = random.next() % 5 == 0 ? nil : stamp()
            guard random.next() % 4 != 0 else { return MergedFold.RecordStamps(created: created, setters: nil) }
            var setters = MergedFold.FieldSetters(all: created ?? stamp())
            // Most often only the end differs from the creator, as a stopped record's does.
            for field in [RecordFields.start, .end, .tagId, .comment] where random.next() % 3 == 0 {
                setters[field] = stamp()
            }
            return MergedFold.RecordStamps(created: created, setters: setters)
        }
        var columns = MergedFold.StampColumns()
        var reference: [MergedFold.RecordStamps] = []
        for step in 0..<4_000 {
            if reference.isEmpty || random.next() % 3 == 0 {
                let value = stamps()
                columns.append(value)
                reference.append(value)
            } else {
                let number = Int(random.next() % UInt64(reference.count))
                let value = stamps()
                columns[number] = value
                reference[number] = value
            }
            let number = Int(random.next() % UInt64(reference.count))
            #expect(columns[number] == reference[number], "seed \(seed), step \(step), number \(number)")
        }
        #expect(columns.count == reference.count)
        for number in reference.indices {
            #expect(columns[number] == reference[number], "seed \(seed), number \(number)")
        }
    }
}
