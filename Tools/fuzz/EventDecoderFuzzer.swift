// libFuzzer target: an event line through RecordedEvent(line:), the domain decoder and the fold. Built and
// run by Tools/fuzz/run.sh. A line that decodes must decode the same through the general decoders (the JSON
// parser, the envelope's and the payload's strict readers) and re-encode to a line that decodes to the same
// event; a line the fast path read must be that event's canonical line, byte for byte; a genesis state must
// come back from its compact checkpoint unchanged.
import StintCore

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzEventDecoder(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    for line in bytes.split(separator: 0x0A, omittingEmptySubsequences: false).prefix(8) {
        let bytes = Array(line)
        guard
            let (event, isKnownCanonical) = try? bytes.withUnsafeBufferPointer({ (buffer) throws(EventLineError) in
                try RecordedEvent.decode(lineBytes: buffer)
            })
        else { continue }
        // Verification trusts a line the fast path read to be canonical instead of re-encoding it.
        precondition(
            !isKnownCanonical || event.encodedLine() == bytes, "the fast path accepted a line that is not canonical")
        // The fast paths (a canonical line, a payload decoded from its bytes) against the general ones.
        let general = try? RecordedEvent(json: JSON.parse(Array(line)))
        precondition(general == event, "the canonical line decoder and the general decoder disagree")
        let strict = try? DomainEvent(type: event.type, version: event.version, data: event.data)
        precondition(strict == (try? DomainEvent(event)), "the payload's fast and strict decoders disagree")
        let encoded = event.encodedLine()
        guard let again = try? RecordedEvent(line: encoded) else {
            preconditionFailure("a decoded event re-encodes to a line that does not decode")
        }
        precondition(again == event, "an event changed through encoding and decoding")
        precondition(again.encodedLine() == encoded, "the canonical encoding is not stable")
        if let domain = try? DomainEvent(event) {
            _ = domain
            if let state = try? LogState(genesis: event) {
                let bytes = state.compactCheckpoint
                let restored = bytes.withUnsafeBytes { (buffer) in try? LogState(compactCheckpoint: buffer) }
                precondition(restored == state, "a genesis state changed through its compact checkpoint")
            }
        }
    }
    return 0
}
