import Glibc
public import StintCore

extension LogWriter {
    /// Creates a log directory at `path` whose first event is `settingsEvent`, and returns its writer.
    ///
    /// Creates the directory and its `lock`, appends the settings event as seq 1, then writes the `format`
    /// file last (through a temporary file and a rename), so that a directory without `format` is never a
    /// log. With ``LogConfiguration/device`` the log is of format 2 (`format` says `stint-log 2`) and every
    /// event, the first included, carries the device and an `hlc`. An interrupted creation can simply be run
    /// again: a directory holding only what an interrupted
    /// creation leaves (`lock`, temporary files, a first segment of one event) is reused.
    ///
    /// - Throws: ``LogError/Code/alreadyExists`` when something else is at `path`; ``LogError/Code/notFound``
    ///   when its parent directory does not exist; ``LogError/Code/io`` when a write fails.
    ///
    /// With `remote` (a device joining a space, whose first event must sort after the events it ingested),
    /// the first batch's `hlc` is received from it (``append(_:receiving:)``).
    public static func create(
        at path: String, settingsEvent: EventDraft, configuration: LogConfiguration, receiving remote: HLC? = nil
    ) throws(LogError) -> LogWriter {
        try create(at: path, configuration: configuration) { (writer) throws(LogError) in
            _ = try writer.append([settingsEvent], receiving: remote)
        }
    }

    /// Creates a log directory whose first batch `appendFirst` appends, and returns its writer.
    static func create(
        at path: String, configuration: LogConfiguration,
        appendingFirst appendFirst: (LogWriter) throws(LogError) -> Void
    ) throws(LogError) -> LogWriter {
        let fileSystem = configuration.fileSystem
        let kind: FileKind?
        do {
            kind = try fileSystem.kind(of: path)
        } catch {
            throw LogError.io(error, "look at \(path)", path: path)
        }
        switch kind {
        case nil:
            do {
                try fileSystem.makeDirectory(path)
            } catch {
                if error.errno == ENOENT {
                    throw LogError(
                        .notFound,
                        "cannot create a log at \(path): its parent directory does not exist; create it first")
                }
                if error.errno != EEXIST { throw LogError.io(error, "create the log directory", path: path) }
            }
        case .directory:
            break
        case .regularFile, .other:
            throw LogError(
                .alreadyExists, "cannot create a log at \(path): a file is already there; choose another path")
        }
        let writer = LogWriter(path: path, configuration: configuration)
        // Refuse a directory that holds something else before the lock file is created in it (checked again
        // under the lock).
        if kind == .directory { _ = try writer.interruptedCreationLeftovers() }
        try writer.acquireLock()
        do throws(LogError) {
            try writer.clearInterruptedCreation()
            do throws(LogError) {
                if configuration.device != nil { writer.hybridClock = HybridLogicalClock() }
                try appendFirst(writer)
                try writer.writeFile(
                    named: LogDirectory.formatName,
                    configuration.device == nil ? LogDirectory.formatText : LogDirectory.formatText2)
                try writer.synchronizeParent()
            } catch {
                // `format` may be in place but not durable (its directory or the parent failed to sync): take
                // it away, so that the directory is an interrupted creation that running create again
                // completes, rather than a log whose existence a power loss could undo.
                let formatPath = writer.directory.path(LogDirectory.formatName)
                if (try? fileSystem.kind(of: formatPath)) != nil {
                    try? fileSystem.removeFile(formatPath)
                    try? fileSystem.synchronizeDirectory(path)
                }
                throw error
            }
        } catch {
            writer.close()
            throw error
        }
        return writer
    }

    /// Opens the log at `path` for appending: takes the lock, repairs a torn tail, and completes an
    /// interrupted sealing.
    ///
    /// First makes sure every segment is one a writer checked whole and that has not changed since (the
    /// `checked` file, ``checkSegments()``): a `stat` per sealed segment and the digest of the active one, so
    /// opening costs about the same however long the log is, and no append is acknowledged after damage a cold
    /// read would stop at. Then every frame of the active segment is checked: checksums, events,
    /// `seq` continuity, `tx`, `at` order and the hash chain. An incomplete or unreadable *last* frame (or
    /// garbage after the last good frame) is the trace of an interrupted append: its bytes are copied to
    /// `<segment>.torn-<offset>`, the segment is truncated, and ``LogConfiguration/onNotice`` is told.
    ///
    /// - Throws: ``LogError/Code/notFound``, ``LogError/Code/notALog``, ``LogError/Code/newerFormat`` for a
    ///   path that is not a log this build can write; ``LogError/Code/locked`` when another process holds
    ///   the lock beyond ``LogConfiguration/lockTimeout``; ``LogError/Code/damaged`` (with the segment,
    ///   offset and last good `seq`) when the log is damaged before its last frame, in which case nothing on
    ///   disk is changed; ``LogError/Code/io`` when a read or write fails.
    ///
    /// A log of format 2 is opened only with its device (``LogConfiguration/device``, the one its last event
    /// carries); the writer's hybrid logical clock starts from the last event's `hlc` (or `[at, 0]` for an
    /// event without one). With a device, a log of format 1 becomes one of format 2: its `format` file is
    /// rewritten (through `format.tmp` and a rename) before anything is appended, and its next batch is the
    /// first to carry the pair.
    ///
    /// - Parameter tail: called once the lock is held: the ``LogTail`` a writer left, if the caller kept one.
    ///   When the last segment is as it describes, opening reads a few bytes of it instead of its frames.
    public static func open(
        at path: String, configuration: LogConfiguration, tail: () -> LogTail? = { nil }
    ) throws(LogError) -> LogWriter {
        let writer = LogWriter(path: path, configuration: configuration)
        let format = try writer.directory.checkFormat()
        if format == 2 && configuration.device == nil {
            // Refused before anything is repaired: this writer could not append to it anyway.
            throw LogError(
                .invalidInput,
                "\(path) is a device's log (log format 2): only a writer with its device id may append to it")
        }
        try writer.acquireLock()
        do {
            try writer.openLocked(format: format, tail: tail)
        } catch {
            writer.close()
            throw error
        }
        return writer
    }

    /// What opening does under the lock: checks every segment, takes the log's end (from a tail when the last
    /// segment is vouched for, otherwise by checking its frames), starts stamping, and records what it checked.
    func openLocked(format: Int, tail: () -> LogTail?) throws(LogError) {
        // Every segment is vouched for or checked before anything is appended: an append after damage would be
        // acknowledged where a cold read cannot reach it.
        let lastSegmentVouched = try checkSegments()
        if lastSegmentVouched, let tail = tail(), try recover(from: tail) {
            try startStamping(format: format)
            recordCheckedFile()
            return
        }
        if lastSegmentVouched, try recoverFromTailFile() {
            try startStamping(format: format)
            recordCheckedFile()
            return
        }
        try recover()
        try hashCheckedActiveSegment()
        try startStamping(format: format)
        recordTailFile()
        recordCheckedFile()
    }

    /// Once the last event is known: starts the hybrid logical clock of a writer with a device, turning a log
    /// of format 1 into one of format 2; refuses a log whose last event another device wrote.
    private func startStamping(format: Int) throws(LogError) {
        guard let device = configuration.device else { return }
        if let written = lastEvent?.device, written != device {
            throw LogError(
                .invalidInput,
                "\(path) is the log of device \(written), not of this device \(device): each device writes only its "
                    + "own log")
        }
        if format == 1 { try writeFile(named: LogDirectory.formatName, LogDirectory.formatText2) }
        hybridClock = HybridLogicalClock(last: lastEvent.map { $0.hlc ?? HLC(impliedBy: $0.at) } ?? .zero)
    }

    /// Takes the exclusive lock on `lock`, retrying every 10 ms until the configured timeout.
    func acquireLock() throws(LogError) {
        let lockPath = directory.path(LogDirectory.lockName)
        let descriptor: Int32
        do {
            descriptor = try fileSystem.openFile(lockPath, .createIfMissing)
        } catch {
            throw LogError.io(error, "open the log's lock file", path: lockPath)
        }
        let components = configuration.lockTimeout.components
        let timeout = max(0, components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000)
        let interval: Int64 = 10
        var waited: Int64 = 0
        while true {
            let taken: Bool
            do {
                taken = try fileSystem.tryLockExclusively(descriptor)
            } catch {
                fileSystem.close(descriptor)
                throw LogError.io(error, "lock the log", path: lockPath)
            }
            if taken {
                lockDescriptor = descriptor
                return
            }
            if waited >= timeout { break }
            let step = min(interval, timeout - waited)
            fileSystem.pause(milliseconds: Int(step))
            waited += step
        }
        fileSystem.close(descriptor)
        let seconds = Double(timeout) / 1000
        throw LogError(
            .locked,
            "another stint process is writing to \(path) (it holds \(lockPath)); waited \(seconds) s for it. Try "
                + "again when it has finished")
    }

    /// Removes what an interrupted ``create(at:settingsEvent:configuration:)`` left, refusing anything else.
    private func clearInterruptedCreation() throws(LogError) {
        for name in try interruptedCreationLeftovers() {
            do {
                try fileSystem.removeFile(directory.path(name))
            } catch {
                throw LogError.io(error, "remove \(name) left by an interrupted creation", path: directory.path(name))
            }
        }
    }

    /// The files an interrupted ``create(at:settingsEvent:configuration:)`` left in the directory (a `lock`
    /// is kept, not listed).
    ///
    /// - Throws: ``LogError/Code/alreadyExists`` when the directory holds anything else.
    private func interruptedCreationLeftovers() throws(LogError) -> [String] {
        let names: [String]
        do {
            names = try fileSystem.contentsOfDirectory(path)
        } catch {
            throw LogError.io(error, "list \(path)", path: path)
        }
        let firstSegment = LogDirectory.segmentName(firstSeq: 1)
        var leftovers: [String] = []
        for name in names {
            if name == LogDirectory.lockName { continue }
            if name == LogDirectory.formatName {
                throw LogError(.alreadyExists, "cannot create a log at \(path): a log is already there")
            }
            if name.hasSuffix(LogDirectory.temporarySuffix) || name == TailFile.name || name == CheckedSegments.name {
                // The `tail` file (of a writer that keeps one, such as a mirror) and the `checked` file: the first
                // append leaves them before `format`.
                leftovers.append(name)
            } else if name == firstSegment && (try? holdsOnlyOneEvent(name)) == true {
                leftovers.append(name)
            } else {
                throw LogError(
                    .alreadyExists,
                    "cannot create a log at \(path): the directory is not empty (it holds \(name)); choose an empty "
                        + "or new directory")
            }
        }
        return leftovers
    }

    /// Whether a segment holds exactly one frame with one event (what an interrupted creation leaves).
    private func holdsOnlyOneEvent(_ name: String) throws(LogError) -> Bool {
        let reader = LogReader(
            source: .file(directory.path(name)), name: name, options: configuration.readOptions)
        let cursor = try reader.batches()
        guard let first = try cursor.next(), first.events.count == 1, first.firstSeq == 1 else { return false }
        return try cursor.next() == nil && cursor.warning == nil
    }

    /// Writes a small file atomically: temporary file, sync, rename, directory sync.
    func writeFile(named name: String, _ bytes: [UInt8]) throws(LogError) {
        do {
            try fileSystem.replaceFile(directory.path(name), in: path, with: bytes)
        } catch {
            throw stop(LogError.io(error, "write \(name)", path: directory.path(name)))
        }
    }

    /// Writes a cache file of the log directory (`tail`, `checked`): through `<name>.tmp` and a rename, not
    /// synced — a torn or lost one only costs the next writer a check. Returns whether it was written; failures
    /// are otherwise ignored.
    @discardableResult
    func writeCacheFile(named name: String, _ bytes: [UInt8]) -> Bool {
        fileSystem.replaceCacheFile(directory.path(name), with: bytes)
    }

    /// Makes the log directory's own entry durable.
    private func synchronizeParent() throws(LogError) {
        let parent = LocalPath(path)?.parent.string ?? "."
        do {
            try fileSystem.synchronizeDirectory(parent)
        } catch {
            throw stop(LogError.io(error, "sync the directory holding the log", path: parent))
        }
    }
}
