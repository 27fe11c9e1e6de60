import Dispatch
import Glibc
import Synchronization

/// Prepares the segments of a log directory on worker threads, a few ahead of the one being checked, and
/// hands them to the checking thread in order.
///
/// Segments are independent until their events are checked against each other, so the expensive work on
/// them (reading the file, scanning and decompressing frames, decoding and hashing each line; see
/// ``PreparedSegment``) runs on worker threads, while everything that depends on order (`seq`
/// continuity, `at` order, batches, the hash chain's joins, the caller's checks and fold) stays on the
/// thread that calls ``take(_:)``. At most one segment more than there are workers is prepared or being
/// prepared beyond those taken, which bounds memory (a prepared segment holds its decoded events: a few
/// megabytes; two per worker cost 20 MB more at 1M events and were no faster). Segments are claimed in order, so the one the caller waits for is always
/// being prepared or ready.
final class SegmentPipeline: @unchecked Sendable {
    /// A segment to prepare.
    struct Job: Sendable {
        var path: String
        var offset: Int64
    }

    private struct State {
        var nextToClaim = 0
        var ready: [Int: PreparedSegment] = [:]
        var cancelled = false
    }

    private let jobs: [Job]
    private let work: PreparedSegment.Work
    private let state = Mutex(State())
    private let readiness: [DispatchSemaphore]
    /// One token per segment that may be claimed and not yet taken.
    private let room: DispatchSemaphore
    private let running = DispatchGroup()
    private var cancelled = false

    /// The most workers a pipeline starts, whatever it is asked for.
    static let maximumWorkers = 64

    /// Starts `workers` threads (at most one per job and ``maximumWorkers``) preparing `jobs`, at most
    /// `workers + 1` segments ahead of the last one taken.
    init(jobs: [Job], work: PreparedSegment.Work, workers: Int) {
        self.jobs = jobs
        self.work = work
        let workers = max(1, min(workers, jobs.count, SegmentPipeline.maximumWorkers))
        readiness = jobs.map { _ in DispatchSemaphore(value: 0) }
        // Created empty and filled, because libdispatch refuses to free a semaphore holding fewer tokens than
        // it was created with (as when the pipeline is cancelled with segments in flight).
        room = DispatchSemaphore(value: 0)
        for _ in 0..<(workers + 1) { room.signal() }
        for _ in 0..<workers {
            running.enter()
            WorkerThread.start {
                self.prepareSegments()
                self.running.leave()
            }
        }
    }

    /// The default number of workers: the processors this process may use, at most 4.
    static var defaultWorkerCount: Int {
        let online = sysconf(Int32(_SC_NPROCESSORS_ONLN))
        return max(1, min(4, online > 0 ? online : 1))
    }

    private var isCancelled: Bool { state.withLock { $0.cancelled } }

    private func prepareSegments() {
        while true {
            room.wait()
            let claimed = state.withLock { state -> Int? in
                guard !state.cancelled, state.nextToClaim < jobs.count else { return nil }
                state.nextToClaim += 1
                return state.nextToClaim - 1
            }
            guard let index = claimed else {
                // Nothing left, or cancelled: pass the token on so that every other worker finds out too.
                room.signal()
                return
            }
            let job = jobs[index]
            let prepared = PreparedSegment.prepare(path: job.path, from: job.offset, work: work) { isCancelled }
            state.withLock { $0.ready[index] = prepared }
            readiness[index].signal()
        }
    }

    /// The prepared segment `index`, waiting for it if needed; each index is taken once, in increasing order.
    func take(_ index: Int) -> PreparedSegment {
        readiness[index].wait()
        let prepared = state.withLock { $0.ready.removeValue(forKey: index) }
        room.signal()
        guard let prepared else { preconditionFailure("segment \(index) was taken twice") }
        return prepared
    }

    /// Stops preparing, drops what was prepared and waits for the workers to return (each finishes at most
    /// the frame it is on). Nothing runs on the file system afterwards. The owner calls it when it stops
    /// reading (the workers keep the pipeline alive until then).
    func cancel() {
        guard !cancelled else { return }
        cancelled = true
        state.withLock {
            $0.cancelled = true
            $0.ready = [:]
        }
        room.signal()
        running.wait()
    }
}
