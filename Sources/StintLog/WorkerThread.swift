import Dispatch
import Glibc

/// Threads of their own for work that blocks while it waits for room or for files (a
/// ``SegmentPipeline``'s workers, a space's per-device readers). Not the dispatch pool: it runs about as
/// many threads as there are processors, so workers that block there starve one another when several
/// readers run at once (a space's merged read keeps a reader per device: a 100k-event replica's cold read
/// took 3.6 s of wall time for 0.7 s of CPU).
package enum WorkerThread {
    /// Lowers the calling thread's scheduling priority a little (a nice value of 5; Linux keeps one per
    /// thread): for threads that read ahead for another, which must not take the processor from the thread
    /// they feed when there are fewer processors than threads.
    package static func yieldPriority() {
        #if os(Linux)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 5)
        #endif
    }

    /// Runs `body` on a new detached thread; on the dispatch pool when the system refuses a thread (slower
    /// when several block there at once, never wrong).
    package static func start(_ body: @escaping @Sendable () -> Void) {
        final class Box {
            let body: @Sendable () -> Void
            init(_ body: @escaping @Sendable () -> Void) { self.body = body }
        }
        let box = Unmanaged.passRetained(Box(body)).toOpaque()
        var attributes = pthread_attr_t()
        pthread_attr_init(&attributes)
        defer { pthread_attr_destroy(&attributes) }
        pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
        var thread = pthread_t()
        let result = pthread_create(
            &thread, &attributes,
            { context in
                Unmanaged<Box>.fromOpaque(context!).takeRetainedValue().body()
                return nil
            }, box)
        if result != 0 {
            Unmanaged<Box>.fromOpaque(box).release()
            DispatchQueue.global().async(execute: body)
        }
    }
}
