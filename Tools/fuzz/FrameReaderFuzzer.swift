// libFuzzer target: the frame reader and verifier on arbitrary bytes (a segment, several, or `.jsonl`).
// Built and run by Tools/fuzz/run.sh. Whatever the input, reading must end without a crash, a hang or a
// leak, and must never hand out a batch that the verifier would not also have read.
import StintCore
import StintLog

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzFrameReader(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    let bytes = size == 0 ? [] : Array(UnsafeBufferPointer(start: data, count: size))
    var read: [RecordedEvent] = []
    if let cursor = try? LogReader(bytes: bytes, name: "fuzz").events() {
        while let event = try? cursor.next() { read.append(event) }
    }
    let options = LogReader.Options(readChunkSize: 1 + size % 977, checksChain: size % 2 == 0)
    if let cursor = try? LogReader(bytes: bytes, name: "fuzz", options: options).batches() {
        while let batch = try? cursor.next() { precondition(!batch.events.isEmpty) }
    }
    if let report = try? LogReader(bytes: bytes, name: "fuzz").verify() {
        // What a reader handed out decoded and chained: verify counted at least those events.
        precondition(report.eventCount >= Int64(read.count), "verify saw fewer events than the reader")
    }
    return 0
}
