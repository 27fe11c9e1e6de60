import Testing

@testable import StintCore

/// `log.repaired` version 2 (`resumesAt`, `resumeLink`: where the events a salvage kept after its gap resume)
/// and its reading of version 1.
@Suite struct LogRepairedVersionTests {
    static let link = "0123456789abcdef0123456789abcdef"

    static func line(version: Int, data: String) -> [UInt8] {
        Array(
            (#"{"seq":15,"at":"2026-11-29T09:00:00.000Z","type":"log.repaired","v":\#(version),"#
                + #""prev":"00000000000000000000000000000000","data":\#(data)}"#).utf8)
    }

    static func decode(_ text: String, version: Int) -> DomainError.Code? {
        let data = try! JSON.parse(Array(text.utf8))
        let general = errorCode { () throws(DomainError) in
            try DomainEvent(type: "log.repaired", version: version, data: data)
        }
        let line = Self.line(version: version, data: text)
        let fast = errorCode { () throws(DomainError) in try DomainEvent(try! RecordedEvent(line: line[...])) }
        #expect(general == fast, "the general and the fast decoders disagree on \(text)")
        return general
    }

    @Test func aVersion1LineReadsAsARepairWithoutAResumePoint() throws {
        let line = Self.line(version: 1, data: #"{"from":15,"to":20,"reason":"bad checksum"}"#)
        let read = try RecordedEvent(line: line[...])
        #expect(try DomainEvent(read) == .logRepaired(from: 15, to: 20, reason: "bad checksum", resume: nil))
        // The line keeps its bytes: it is upgraded in memory only.
        #expect(read.encodedLine() == line)
    }

    @Test func aVersion1LineWithAResumePointIsRefused() {
        #expect(
            Self.decode(#"{"from":15,"to":20,"reason":"x","resumesAt":21,"resumeLink":"\#(Self.link)"}"#, version: 1)
                == .invalidEventData)
    }

    @Test func version2WritesTheResumePointLastAndReadsItBack() throws {
        let event = DomainEvent.logRepaired(
            from: 15, to: 20, reason: "bad checksum", resume: ResumePoint(seq: 21, link: Self.link))
        #expect(event.draft.version == 2)
        #expect(
            event.data.encodedString
                == #"{"from":15,"to":20,"reason":"bad checksum","resumesAt":21,"resumeLink":"\#(Self.link)"}"#)
        let line = Self.line(version: 2, data: event.data.encodedString)
        #expect(try DomainEvent(RecordedEvent(line: line[...])) == event)
        let withoutResume = DomainEvent.logRepaired(from: 15, to: 20, reason: "bad checksum", resume: nil)
        #expect(withoutResume.data.encodedString == #"{"from":15,"to":20,"reason":"bad checksum"}"#)
        #expect(Self.decode(withoutResume.data.encodedString, version: 2) == nil)
    }

    @Test(arguments: [
        // One member without the other.
        #"{"from":15,"to":20,"reason":"x","resumesAt":21}"#,
        #"{"from":15,"to":20,"reason":"x","resumeLink":"\#(link)"}"#,
        // A resume point at or before the record itself.
        #"{"from":15,"to":20,"reason":"x","resumesAt":15,"resumeLink":"\#(link)"}"#,
        #"{"from":15,"to":20,"reason":"x","resumesAt":0,"resumeLink":"\#(link)"}"#,
        // A link that is not 32 lowercase hex digits.
        #"{"from":15,"to":20,"reason":"x","resumesAt":21,"resumeLink":"0123456789ABCDEF0123456789ABCDEF"}"#,
        #"{"from":15,"to":20,"reason":"x","resumesAt":21,"resumeLink":"\#(link)00"}"#,
        #"{"from":15,"to":20,"reason":"x","resumesAt":"21","resumeLink":"\#(link)"}"#,
        #"{"from":15,"to":20,"reason":"x","resumesAt":21,"resumeLink":null}"#,
        // A resume point that is not right after the lost seqs, or so large that the seqs after it could overflow.
        #"{"from":15,"to":20,"reason":"x","resumesAt":22,"resumeLink":"\#(link)"}"#,
        #"{"from":15,"to":4611686018427387904,"reason":"x","resumesAt":4611686018427387905,"resumeLink":"\#(link)"}"#,
    ])
    func aResumePointMustBeWhole(data: String) {
        #expect(Self.decode(data, version: 2) == .invalidEventData)
    }

    /// A repair changes no record; one with a resume point also ends what undo can reach (the lost events may
    /// have moved the stacks) and marks the fold as after a gap.
    @Test func aRepairFoldsAsBookkeepingWhateverItsResumePoint() throws {
        for resume in [nil, ResumePoint(seq: 40, link: Self.link)] {
            var log = TestLog()
            try log.run(.start(at: log.time("07:00")))
            let before = log.state
            #expect(!before.undoStack.isEmpty)
            try log.append([.logRepaired(from: log.state.lastSeq + 1, to: 39, reason: "x", resume: resume)])
            #expect(log.state.records == before.records)
            #expect(log.state.runningRecordIds == before.runningRecordIds)
            #expect(log.state.undoStack == (resume == nil ? before.undoStack : []))
            #expect(log.state.resumedAfterRepair == (resume == nil ? nil : log.state.lastSeq))
            #expect(log.state.lastSeq == before.lastSeq + 1)
        }
    }
}
