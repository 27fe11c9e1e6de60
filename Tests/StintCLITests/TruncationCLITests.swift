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
        /// The `checked` file each command left, by the segment's size after it: what a crash tearing the next
        /// append leaves (a torn append was never acknowledged).
        let checkedAtEnd: [Int: Data]

        init() throws {
            log = scratch.path + "/log"
            let runner = CLIRunner(log: log)
            var frames: [(Int, Int)] = []
            var segment = ""
            var events = 0
            var checkedAtEnd: [Int: Data] = [:]
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
                checkedAtEnd[size] = FileManager.default.contents(atPath: log + "/checked")
            }
            self.checkedAtEnd = checkedAtEnd
            self.segment = segment
            self.frames = frames
            bytes = Array(FileManager.default.contents(atPath: log + "/" + segment)!)
            history = runner.run(["--json", "history"]).stdout.split(separator: "\n").map(String.init)
        }

        /// Puts `content` in place of the segment, with the `checked` file of the command whose frame ends at
        /// `acknowledged` (nil: the last command's).
        func write(_ content: [UInt8], acknowledged: Int? = nil) throws {
            for name in try FileManager.default.contentsOfDirectory(atPath: log)
            where name.contains(".torn-") || name.contains(".damaged") || (name.hasSuffix(".zst") && name != segment) {
                try FileManager.default.removeItem(atPath: log + "/" + name)
            }
            try Data(content).write(to: URL(fileURLWithPath: log + "/" + segment))
            try checkedAtEnd[acknowledged ?? bytes.count]!.write(to: URL(fileURLWithPath: log + "/checked"))
        }

        /// Checks the CLI on the segment holding `content`, whose complete frames end at `keptEnd`.
        func check(_ content: [UInt8], keptEnd: Int, keptEvents: Int, _ label: String) throws {
            try write(content, acknowledged: keptEnd)
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

    /// Bytes a command acknowledged that are cut off are damage, not a torn append: the next command is refused
    /// (65) with the log left byte for byte, `verify` names the lost `seq`s, and `repair` keeps the whole frames
    /// before the cut and records the loss.
    @Test func cuttingAcknowledgedBytesIsRefusedUntilRepaired() throws {
        let original = try Original()
        let lastFrameStart = original.frames[original.frames.count - 2].end
        for cut in stride(from: lastFrameStart, to: original.bytes.count, by: 17) {
            let label = "cut at \(cut)"
            let kept = original.frames.last { $0.end <= cut }!
            try original.write(Array(original.bytes.prefix(cut)))
            let runner = CLIRunner(log: original.log)
            let before = try LogFiles.files(of: original.log)
            let next = runner.run(["tag", "add", "after-the-cut"])
            #expect(next.status == 65, "\(label): \(next.stderr)")
            #expect(
                next.stderr.contains("acknowledged") && next.stderr.contains("stint repair"), "\(label): \(next.stderr)"
            )
            #expect(try LogFiles.files(of: original.log) == before, "\(label): the refusal changed the log")
            let verify = runner.run(["verify"])
            #expect(verify.status == 65, "\(label)")
            let lost =
                kept.events + 1 == original.history.count
                ? "seq \(kept.events + 1) is" : "seq \(kept.events + 1)…\(original.history.count) are"
            #expect(verify.stdout.contains(lost) || verify.stderr.contains(lost), "\(label): \(verify.stdout)")

            let repair = runner.run(["repair"])
            #expect(repair.status == 0, "\(label): \(repair.stderr)")
            let first = kept.events + 1
            let last = original.history.count
            #expect(
                repair.stdout.contains(first == last ? "lost seq \(first)." : "lost seqs \(first)–\(last)"),
                "\(label): \(repair.stdout)")
            let after = runner.run(["--json", "history"]).stdout.split(separator: "\n").map(String.init)
            #expect(Array(after.prefix(kept.events)) == Array(original.history.prefix(kept.events)), "\(label)")
            #expect(after.last?.contains("log.repaired") == true, "\(label)")
            #expect(runner.run(["verify"]).status == 0, "\(label)")
            #expect(runner.run(["tag", "add", "after-the-repair"]).status == 0, "\(label)")
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
