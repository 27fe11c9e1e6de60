import Foundation

// Writing an export's rows straight into a byte buffer, for exports of long histories.
extension RecordExport {
    /// Writes export rows straight into a byte buffer: the bytes of ``RecordExport/Frame/json(_:)`` and of the
    /// CSV export, without building a ``JSON`` value or a `String` per field.
    ///
    /// The JSON value path (``RecordExport/json``, ``RecordExport/Frame/json(_:)``) stays the reference: tests
    /// compare both on hostile comments and tag names and across offset changes in many zones. Rows are best
    /// given in start order, as an export reads them: the zone's offset and the date are remembered.
    ///
    /// ```swift
    /// var writer = RecordExport.RowWriter(frame)
    /// writer.appendJSON(row, to: &buffer)
    /// ```
    public struct RowWriter: Sendable {
        public let frame: Frame
        private var offsets: ZoneOffsets
        /// The last local and UTC dates: most records start and end on the day the one before them did.
        private var localDays = DayCache()
        private var utcDays = DayCache()

        public init(_ frame: Frame) {
            self.frame = frame
            offsets = ZoneOffsets(frame.calendar)
        }

        /// Appends one record of the JSON document's `records` array, the bytes of ``Frame/json(_:)``.
        public mutating func appendJSON(_ row: Row, to bytes: inout [UInt8]) {
            let record = row.record
            guard Self.fourDigitYears(record.start), record.end.map(Self.fourDigitYears) ?? true,
                row.milliseconds % 1000 == 0, abs(row.milliseconds) < 1 << 53
            else {
                // Years outside 0…9999 and fractions of seconds are rare: the reference path writes them.
                return bytes.append(contentsOf: frame.json(row))
            }
            let start = offsets.offset(at: record.start)
            let localStart = localDays.local(record.start, offsetSeconds: start.seconds)
            let utcStart = utcDays.local(record.start, offsetSeconds: 0)
            var endOffset: ZoneOffset?
            var localEnd = localStart
            var utcEnd = utcStart
            if let end = record.end {
                let offset = offsets.offset(at: end)
                endOffset = offset
                localEnd = localDays.local(end, offsetSeconds: offset.seconds)
                utcEnd = utcDays.local(end, offsetSeconds: 0)
            }
            // The parts of fixed size (at most 282 bytes) go through one buffer on the stack, appended at once.
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 384) { buffer in
                var cursor = ExportCursor(buffer.baseAddress!)
                cursor.put(#"{"id":""#)
                cursor.put(record.id)
                cursor.put(#"","start":""#)
                cursor.putLocal(localStart, start)
                if let endOffset {
                    cursor.put(#"","end":""#)
                    cursor.putLocal(localEnd, endOffset)
                }
                cursor.put(#"","startUtc":""#)
                cursor.putUTC(utcStart)
                if endOffset != nil {
                    cursor.put(#"","endUtc":""#)
                    cursor.putUTC(utcEnd)
                }
                cursor.put(#"","durationSeconds":"#)
                cursor.putInteger(row.milliseconds / 1000)
                if let tagId = record.tagId {
                    cursor.put(#","tagId":""#)
                    cursor.put(tagId)
                    cursor.put(0x22)
                }
                bytes.append(
                    contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: cursor.count(from: buffer)))
            }
            if let tag = row.tag {
                Self.append(#","tag":"#, to: &bytes)
                JSON.appendString(tag.name, to: &bytes)
            }
            if let comment = record.comment {
                Self.append(#","comment":"#, to: &bytes)
                JSON.appendString(comment, to: &bytes)
            }
            Self.append(record.isRunning ? #","running":true}"# : #","running":false}"#, to: &bytes)
        }

        /// Appends the local time of `instant` in the log's zone with its offset, the bytes of
        /// ``RecordExport/local(_:)``: `2026-11-01T01:30:00-04:00`, `.mmm` when the milliseconds are not zero.
        public mutating func appendLocal(_ instant: Instant, to bytes: inout [UInt8]) {
            guard Self.fourDigitYears(instant) else {
                return bytes.append(contentsOf: Array(frame.local(instant).utf8))
            }
            let offset = offsets.offset(at: instant)
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 48) { buffer in
                var cursor = ExportCursor(buffer.baseAddress!)
                cursor.putLocal(localDays.local(instant, offsetSeconds: offset.seconds), offset)
                bytes.append(
                    contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: cursor.count(from: buffer)))
            }
        }

        /// Appends `instant` in UTC, the bytes of ``Instant/appendISO8601(to:)``: `2026-11-29T13:07:09.123Z`.
        public mutating func appendUTC(_ instant: Instant, to bytes: inout [UInt8]) {
            guard Self.fourDigitYears(instant) else { return instant.appendISO8601(to: &bytes) }
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
                var cursor = ExportCursor(buffer.baseAddress!)
                cursor.putUTC(utcDays.local(instant, offsetSeconds: 0))
                bytes.append(
                    contentsOf: UnsafeBufferPointer(start: buffer.baseAddress, count: cursor.count(from: buffer)))
            }
        }

        /// Whether `instant` lies in the years 0001…9998 in UTC, so that it has a four-digit year at any offset.
        @inline(__always)
        static func fourDigitYears(_ instant: Instant) -> Bool {
            instant.milliseconds >= -62_135_596_800_000 && instant.milliseconds < 253_370_764_800_000
        }

        @inline(__always)
        static func append(_ text: StaticString, to bytes: inout [UInt8]) {
            bytes.append(contentsOf: UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
        }
    }

    /// Appends milliseconds as decimal seconds, the bytes of ``seconds(_:)``: `5400`, `5400.25`, `0.001`.
    public static func appendSeconds(_ milliseconds: Int64, to bytes: inout [UInt8]) {
        let whole = milliseconds / 1000
        var fraction = Int(abs(milliseconds % 1000))
        if milliseconds < 0 && whole == 0 && fraction != 0 { bytes.append(0x2D) }
        JSON.appendInteger(whole, to: &bytes)
        guard fraction != 0 else { return }
        bytes.append(0x2E)
        var divisor = 100
        while fraction != 0 {
            bytes.append(0x30 &+ UInt8(truncatingIfNeeded: fraction / divisor))
            fraction %= divisor
            divisor /= 10
        }
    }
}

/// The log zone's offset from UTC, remembered over the span between two of its transitions, and its text
/// (`+01:00`, as ``MessageFormat/offset(_:)``): an export asks for two offsets per record, in start order,
/// and the zone changes its offset a few times a year at most.
struct ZoneOffsets: Sendable {
    private struct Span: Sendable {
        /// `[from, until)` in milliseconds, where the offset is `seconds`.
        var from: Int64
        var until: Int64
        var offset: ZoneOffset
    }

    private let calendar: LogCalendar
    /// The span last used and the one before it: a record's end may lie after a transition its start
    /// lies before, and the next record's start before it again.
    private var current: Span?
    private var previous: Span?

    init(_ calendar: LogCalendar) {
        self.calendar = calendar
    }

    /// The offset at `instant`, with its text.
    mutating func offset(at instant: Instant) -> ZoneOffset {
        let milliseconds = instant.milliseconds
        if let span = current, milliseconds >= span.from, milliseconds < span.until {
            return span.offset
        }
        if let span = previous, milliseconds >= span.from, milliseconds < span.until {
            swap(&current, &previous)
            return span.offset
        }
        let seconds = calendar.offsetSeconds(at: instant)
        // The span runs from this instant to the zone's next transition (every offset change, not only
        // daylight saving time's); an instant before it is looked up again.
        var until = Int64.max
        let date = Date(timeIntervalSince1970: Double(milliseconds) / 1000)
        if let next = calendar.zone.nextDaylightSavingTimeTransition(after: date) {
            let nextMilliseconds = (next.timeIntervalSince1970 * 1000).rounded(.up)
            if nextMilliseconds < 9.2e18 { until = Int64(nextMilliseconds) }
        }
        // A span is checked at its end: one millisecond before it, the offset is still the same.
        if until != .max, until > milliseconds + 1,
            calendar.offsetSeconds(at: Instant(milliseconds: until - 1)) != seconds
        {
            until = milliseconds + 1
        }
        let offset = ZoneOffset(seconds: seconds)
        previous = current
        current = Span(from: milliseconds, until: max(until, milliseconds + 1), offset: offset)
        return offset
    }
}

/// The local date of the last instant asked for, so that the calendar arithmetic runs once a day.
struct DayCache: Sendable {
    private var days: Int64 = .min
    private var date = CivilDate(year: 1970, month: 1, day: 1)

    /// The wall-clock reading of `instant` at `offsetSeconds`, as ``LocalDateTime/init(_:offsetSeconds:)``.
    @inline(__always)
    mutating func local(_ instant: Instant, offsetSeconds: Int) -> LocalDateTime {
        let local = instant.milliseconds + Int64(offsetSeconds) * 1000
        let dayMs: Int64 = 86_400_000
        let day = local >= 0 ? local / dayMs : (local - dayMs + 1) / dayMs
        if day != days {
            days = day
            date = CivilDate(daysSinceEpoch: day)
        }
        return LocalDateTime(date: date, millisecondOfDay: local - day * dayMs)
    }
}

/// An offset from UTC and its text as ``MessageFormat/offset(_:)`` writes it (`+01:00`: six bytes, packed).
struct ZoneOffset: Sendable {
    let seconds: Int
    let text: UInt64
    let count: Int

    init(seconds: Int) {
        self.seconds = seconds
        let bytes = Array(MessageFormat.offset(seconds).utf8.prefix(8))
        var text: UInt64 = 0
        for (index, byte) in bytes.enumerated() { text |= UInt64(byte) << (8 * UInt64(index)) }
        self.text = text
        count = bytes.count
    }
}

/// Writes bytes through a pointer into a buffer the caller made large enough (the fixed-size parts of a row).
struct ExportCursor {
    private var pointer: UnsafeMutablePointer<UInt8>

    init(_ pointer: UnsafeMutablePointer<UInt8>) {
        self.pointer = pointer
    }

    /// How many bytes were written since `buffer`'s start.
    func count(from buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        pointer - buffer.baseAddress!
    }

    @inline(__always)
    mutating func put(_ byte: UInt8) {
        pointer.pointee = byte
        pointer += 1
    }

    @inline(__always)
    mutating func put(_ text: StaticString) {
        pointer.update(from: text.utf8Start, count: text.utf8CodeUnitCount)
        pointer += text.utf8CodeUnitCount
    }

    /// The id's lowercase canonical text, as ``EntityID/utf8``.
    @inline(__always)
    mutating func put(_ id: EntityID) {
        putHex(UInt32(truncatingIfNeeded: id.high >> 32))
        put(0x2D)
        putHex(UInt16(truncatingIfNeeded: id.high >> 16))
        put(0x2D)
        putHex(UInt16(truncatingIfNeeded: id.high))
        put(0x2D)
        putHex(UInt16(truncatingIfNeeded: id.low >> 48))
        put(0x2D)
        putHex(UInt16(truncatingIfNeeded: id.low >> 32))
        putHex(UInt32(truncatingIfNeeded: id.low))
    }

    /// Eight lowercase hex digits, most significant first, written as one word: each nibble is spread to a
    /// byte, and the bytes of nibbles from 10 up move from the digits to the letters (`'a' - '0' - 10`).
    @inline(__always)
    private mutating func putHex(_ value: UInt32) {
        var spread: UInt64 = 0
        for index in 0..<8 { spread |= UInt64(value >> (28 - 4 * UInt32(index)) & 0xF) << (8 * UInt64(index)) }
        let letters = ((spread &+ 0x0606_0606_0606_0606) >> 4) & 0x0101_0101_0101_0101
        let ascii = spread &+ 0x3030_3030_3030_3030 &+ letters &* 0x27
        UnsafeMutableRawPointer(pointer).storeBytes(of: ascii.littleEndian, as: UInt64.self)
        pointer += 8
    }

    /// Four lowercase hex digits, as ``putHex(_:)-(UInt32)``.
    @inline(__always)
    private mutating func putHex(_ value: UInt16) {
        var spread: UInt32 = 0
        for index in 0..<4 { spread |= UInt32(value >> (12 - 4 * UInt16(index)) & 0xF) << (8 * UInt32(index)) }
        let letters = ((spread &+ 0x0606_0606) >> 4) & 0x0101_0101
        let ascii = spread &+ 0x3030_3030 &+ letters &* 0x27
        UnsafeMutableRawPointer(pointer).storeBytes(of: ascii.littleEndian, as: UInt32.self)
        pointer += 4
    }

    /// A decimal integer, as ``JSON/appendInteger(_:to:)``.
    @inline(__always)
    mutating func putInteger(_ value: Int64) {
        if value < 0 { put(0x2D) }
        var count = 1
        var probe = value.magnitude
        while probe >= 10 {
            probe /= 10
            count += 1
        }
        var rest = value.magnitude
        var index = count
        while index > 0 {
            index -= 1
            pointer[index] = 0x30 &+ UInt8(truncatingIfNeeded: rest % 10)
            rest /= 10
        }
        pointer += count
    }

    /// `YYYY-MM-DDTHH:MM:SS[.mmm]±HH:MM`, as ``RecordExport/local(_:)`` (a four-digit year).
    @inline(__always)
    mutating func putLocal(_ local: LocalDateTime, _ offset: ZoneOffset) {
        putDateTime(local)
        let millisecond = Int(local.millisecondOfDay % 1000)
        if millisecond != 0 {
            put(0x2E)
            putThreeDigits(millisecond)
        }
        var text = offset.text
        for _ in 0..<offset.count {
            put(UInt8(truncatingIfNeeded: text))
            text >>= 8
        }
    }

    /// `YYYY-MM-DDTHH:MM:SS.mmmZ`, as ``Instant/appendISO8601(to:)`` (a four-digit year).
    @inline(__always)
    mutating func putUTC(_ local: LocalDateTime) {
        putDateTime(local)
        put(0x2E)
        putThreeDigits(Int(local.millisecondOfDay % 1000))
        put(0x5A)
    }

    @inline(__always)
    private mutating func putDateTime(_ local: LocalDateTime) {
        let date = local.date
        let seconds = Int(local.millisecondOfDay / 1000)
        putTwoDigits(date.year / 100)
        putTwoDigits(date.year % 100)
        put(0x2D)
        putTwoDigits(date.month)
        put(0x2D)
        putTwoDigits(date.day)
        put(0x54)
        putTwoDigits(seconds / 3600)
        put(0x3A)
        putTwoDigits(seconds / 60 % 60)
        put(0x3A)
        putTwoDigits(seconds % 60)
    }

    @inline(__always)
    private mutating func putTwoDigits(_ value: Int) {
        put(0x30 &+ UInt8(truncatingIfNeeded: value / 10))
        put(0x30 &+ UInt8(truncatingIfNeeded: value % 10))
    }

    @inline(__always)
    private mutating func putThreeDigits(_ value: Int) {
        put(0x30 &+ UInt8(truncatingIfNeeded: value / 100))
        putTwoDigits(value % 100)
    }
}

extension EntityID {
    /// Appends the lowercase canonical text, the bytes of ``utf8``.
    @inline(__always)
    public func appendUTF8(to bytes: inout [UInt8]) {
        @inline(__always) func hex(_ nibble: UInt64) -> UInt8 {
            let value = UInt8(truncatingIfNeeded: nibble & 0xF)
            return value < 10 ? 0x30 &+ value : 0x57 &+ value
        }
        for shift in stride(from: 60, through: 0, by: -4) {
            if shift == 28 || shift == 12 { bytes.append(0x2D) }
            bytes.append(hex(high >> UInt64(shift)))
        }
        for shift in stride(from: 60, through: 0, by: -4) {
            if shift == 60 || shift == 44 { bytes.append(0x2D) }
            bytes.append(hex(low >> UInt64(shift)))
        }
    }
}
