import Foundation
import StintCore
import TestSupport
import Testing

/// A log whose last segment was cut at every byte offset, or has zeros or garbage after its last frame,
/// seen through the CLI: a read shows exactly the events of the complete frames before the cut, the next
/// command sets the rest aside byte for byte and appends after them, and the log verifies.
@Suite struct TruncationCLITests {
    /// A log made by CLI commands, with the size of its (only) segment after each command: frame ends.
    struct Original {
        let scratch = MemoryBackedDirectory()
        let log: String
        let segment: String
        let bytes: [UInt8]
        /// The end offset of each frame, and the number of events up to it.
        let frames: [(end: Int, events: Int)]
        let history: [String]

        init() throws {
            log = scratch.path + "/log"
            let runner = CLIRunner(log: log)
            var frames: [(Int, Int)] = []
            var segment = ""
            var events = 0
            for line in [
                "init --tz Europe/Berlin", "start writing", "stop", "track 09:00 10:00 reading", "start errands",
                "tag add projects", "stop --all",
            ] {
                let result = runner.run(line)
                precondition(result.status == 0, result.stderr)
                segment = try FileManager.default.contentsOfDirectory(atPath: log).first { $0.hasSuffix(".zst") }!
                let size = try FileManager.default.attributesOfItem(atPath: log + "/" + segment)[.size] as! Int
                events = runner.run(["--json", "history"]).stdout.split(separator: "\n").count
                frames.append((size, events))
            }
            self.segment = segment
            self.frames = frames
            bytes = Array(FileManager.default.contents(atPath: log + "/" + segment)!)
            history = runner.run(["--json", "history"]).stdout.split(separator: "\n").map(String.init)
        }

        func write(_ content: [UInt8]) throws {
            for name in try FileManager.default.contentsOfDirectory(atPath: log) where name.contains(".torn-") {
                try FileManager.default.removeItem(atPath: log + "/" + name)
            }
            try Data(content).write(to: URL(fileURLWithPath: log + "/" + segment))
        }

        /// Checks the CLI on the segment holding `content`, whose complete frames end at `keptEnd`.
        func check(_ content: [UInt8], keptEnd: Int, keptEvents: Int, _ label: String) throws {
            try write(content)
            let runner = CLIRunner(log: log)
            let read = runner.run(["--json", "history"])
            #expect(read.status == 0, "\(label): \(read.stderr)")
            #expect(
                read.stdout.split(separator: "\n").map(String.init) == Array(history.prefix(keptEvents)), "\(label)")
            let next = runner.run(["tag", "add", "after-the-cut"])
            #expect(next.status == 0, "\(label): \(next.stderr)")
            let segmentNow = Array(FileManager.default.contents(atPath: log + "/" + segment)!)
            #expect(Array(segmentNow.prefix(keptEnd)) == Array(content.prefix(keptEnd)), "\(label)")
            if content.count > keptEnd {
                let torn = FileManager.default.contents(atPath: log + "/\(segment).torn-\(keptEnd)").map { Array($0) }
                #expect(torn == Array(content[keptEnd...]), "\(label): the cut bytes were not kept aside")
                #expect(next.stderr.contains("note: "), "\(label): the repair was not reported")
            }
            let after = runner.run(["--json", "history"]).stdout.split(separator: "\n").map(String.init)
            #expect(Array(after.dropLast()) == Array(history.prefix(keptEvents)), "\(label)")
            #expect(after.count == keptEvents + 1, "\(label)")
            let verify = runner.run(["verify"])
            #expect(verify.status == 0, "\(label): \(verify.stdout)")
        }
    }

    @Test func cuttingTheLastSegmentAtEveryOffsetKeepsExactlyTheCompleteFrames() throws {
        let original = try Original()
        #expect(original.frames.last!.end == original.bytes.count)
        // Offset 0 leaves an empty only segment: that is damage, not a torn tail (checked by StintLogTests).
        for cut in original.frames[0].end...original.bytes.count {
            let kept = original.frames.last { $0.end <= cut }!
            try original.check(
                Array(original.bytes.prefix(cut)), keptEnd: kept.end, keptEvents: kept.events, "cut at \(cut)")
        }
    }

    @Test(arguments: [
        ("1 zero byte", [UInt8](repeating: 0, count: 1)),
        ("4 KiB of zeros", [UInt8](repeating: 0, count: 4096)),
        ("a zstd magic number", [0x28, 0xB5, 0x2F, 0xFD]),
        ("seeded garbage", (0..<700).map { UInt8(truncatingIfNeeded: ($0 &* 2_654_435_761) >> 7) }),
    ])
    func zerosOrGarbageAfterTheLastFrameAreSetAside(label: String, tail: [UInt8]) throws {
        let original = try Original()
        try original.check(
            original.bytes + tail, keptEnd: original.bytes.count, keptEvents: original.history.count, label)
    }
}

/// A fresh directory on a memory-backed file system when the machine has one (`/dev/shm`), so that the
/// syncs of thousands of commands cost nothing; removed at deinit. Durability is not what these tests observe.
final class MemoryBackedDirectory: @unchecked Sendable {
    let path: String

    init() {
        let base = FileManager.default.fileExists(atPath: "/dev/shm") ? "/dev/shm" : NSTemporaryDirectory()
        path = base + "/stint-cli-" + UUID().uuidString.prefix(8).lowercased()
        try! FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: path)
    }
}
