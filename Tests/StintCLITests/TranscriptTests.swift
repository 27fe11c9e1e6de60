import Testing

/// Every golden transcript under `__Snapshots__/Transcripts/` replays to the same output.
@Suite struct TranscriptTests {
    @Test(arguments: Transcript.names)
    func transcriptReplaysToTheSameOutput(_ name: String) throws {
        try Transcript.check(name)
    }

    @Test func everyTranscriptFileIsFound() {
        #expect(Transcript.names.count >= 8)
    }
}
