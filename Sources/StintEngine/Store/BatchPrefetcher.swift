import Dispatch
import StintLog
import Synchronization

/// Reads one log's batches on a thread of its own, up to a few chunks ahead of the thread that takes them:
/// a space's merged read keeps one per device, so that reading, checking and decoding the device logs runs
/// beside the fold instead of before each of its steps.
///
/// ``next()`` hands out the batches in order, then nil, exactly as the cursor would; the cursor's
/// ``LogBatchCursor/warning`` and ``LogBatchCursor/incompleteTail`` may be read once ``next()`` returned nil
/// (the reading thread no longer touches the cursor then). Dropping the prefetcher before the end stops the
/// thread and waits for it, so nothing reads the log afterwards.
final class BatchPrefetcher {
    /// How many batches a chunk holds, and how many chunks are read ahead at most.
    static let chunkSize = 512
    static let chunksAhead = 4

    /// The cursor, read by the reading thread until ``next()`` returned nil.
    let cursor: LogBatchCursor
    private let reading: ReadAhead
    /// The chunk being handed out, and where the batches ended.
    private var current: [LogBatch] = []
    private var index = 0
    private var end: (reached: Bool, failure: LogError?) = (false, nil)

    /// Starts reading `cursor` ahead on a thread of its own.
    init(_ cursor: LogBatchCursor) {
        self.cursor = cursor
        reading = ReadAhead(cursor)
        WorkerThread.start { [reading] in
            WorkerThread.yieldPriority()
            reading.run()
        }
    }

    deinit {
        if !end.reached { reading.cancel() }
    }

    /// The next batch; nil at the end.
    ///
    /// - Throws: what the cursor threw, where it threw it.
    func next() throws(LogError) -> LogBatch? {
        while index == current.count {
            if end.reached {
                if let failure = end.failure { throw failure }
                return nil
            }
            let chunk = reading.take(returning: &current)
            current = chunk.batches
            index = 0
            if chunk.isLast { end = (true, chunk.failure) }
        }
        defer { index += 1 }
        return current[index]
    }

    /// A chunk read ahead: its batches, and whether the cursor ended after them (with the error that ended
    /// it, if one did).
    struct Chunk: @unchecked Sendable {
        var batches: [LogBatch]
        var isLast = false
        var failure: LogError?
    }

    /// What the reading thread and the taking thread share (the reading thread holds only this, so that
    /// dropping the prefetcher can stop it).
    final class ReadAhead: @unchecked Sendable {
        private struct Shared {
            var chunks: [Chunk] = []
            /// Batches handed out and done with, for the reading thread to free: it allocated them, and a
            /// thread freeing what another allocated is slow in malloc (and was a tenth of the fold's thread).
            var spent: [[LogBatch]] = []
            var cancelled = false
        }

        private let cursor: LogBatchCursor
        private let shared = Mutex(Shared())
        private let available = DispatchSemaphore(value: 0)
        private let room: DispatchSemaphore
        private let exited = DispatchSemaphore(value: 0)

        init(_ cursor: LogBatchCursor) {
            self.cursor = cursor
            // Created empty and filled: libdispatch refuses to free a semaphore holding fewer tokens than it
            // was created with (as when the reading is cancelled with chunks in flight).
            room = DispatchSemaphore(value: 0)
            for _ in 0..<BatchPrefetcher.chunksAhead { room.signal() }
        }

        private var isCancelled: Bool { shared.withLock { $0.cancelled } }

        /// The reading thread: chunks until the cursor ends or the reading is cancelled.
        func run() {
            defer { exited.signal() }
            while true {
                room.wait()
                let spent = shared.withLock { shared in
                    defer { shared.spent.removeAll() }
                    return shared.spent
                }
                if isCancelled { return }
                // Freed here, on the reading thread (the last reference: the taking thread gave up its own).
                withExtendedLifetime(spent) {}
                var chunk = Chunk(batches: [])
                chunk.batches.reserveCapacity(BatchPrefetcher.chunkSize)
                do throws(LogError) {
                    while chunk.batches.count < BatchPrefetcher.chunkSize, !isCancelled {
                        guard let batch = try cursor.next() else {
                            chunk.isLast = true
                            break
                        }
                        chunk.batches.append(batch)
                    }
                } catch {
                    chunk.isLast = true
                    chunk.failure = error
                }
                shared.withLock { $0.chunks.append(chunk) }
                available.signal()
                if chunk.isLast { return }
            }
        }

        /// The next chunk, waiting for it; `spent`, the batches of the last one, goes to the reading thread to
        /// be freed (and is left empty).
        func take(returning spent: inout [LogBatch]) -> Chunk {
            available.wait()
            let chunk = shared.withLock { shared in
                if !spent.isEmpty { shared.spent.append(spent) }
                // Under the lock, so that the reading thread's reference is the last one.
                spent = []
                return shared.chunks.removeFirst()
            }
            room.signal()
            return chunk
        }

        /// Stops the reading thread and waits for it to return (it finishes at most the batch it is on).
        func cancel() {
            shared.withLock { $0.cancelled = true }
            room.signal()
            exited.wait()
        }
    }
}
