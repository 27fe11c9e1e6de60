extension Instant {
    /// The canonical text form: ISO 8601 in UTC with milliseconds, `2026-11-29T13:07:09.123Z`.
    public var iso8601: String {
        var bytes = [UInt8]()
        bytes.reserveCapacity(24)
        appendISO8601(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the canonical text form to a byte buffer (the hot path of event encoding).
    public func appendISO8601(to bytes: inout [UInt8]) {
        let local = LocalDateTime(self, offsetSeconds: 0)
        let date = local.date
        func digits(_ value: Int, _ width: Int) {
            var divisor = 1
            for _ in 1..<width { divisor *= 10 }
            var rest = value
            while divisor > 0 {
                bytes.append(UInt8(ascii: "0") &+ UInt8(rest / divisor % 10))
                rest %= divisor
                divisor /= 10
            }
        }
        if date.year < 0 || date.year > 9999 {
            bytes.append(contentsOf: Array(CivilDate.pad(date.year, 4).utf8))
        } else {
            digits(date.year, 4)
        }
        bytes.append(UInt8(ascii: "-"))
        digits(date.month, 2)
        bytes.append(UInt8(ascii: "-"))
        digits(date.day, 2)
        bytes.append(UInt8(ascii: "T"))
        digits(local.hour, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(local.minute, 2)
        bytes.append(UInt8(ascii: ":"))
        digits(local.second, 2)
        bytes.append(UInt8(ascii: "."))
        digits(local.millisecond, 3)
        bytes.append(UInt8(ascii: "Z"))
    }

    /// Parses exactly the canonical form (`YYYY-MM-DDTHH:MM:SS.mmmZ`, 24 bytes); nil for anything else.
    public init?(canonical text: some StringProtocol) {
        var utf8 = Array(text.utf8)
        guard let value = utf8.withUnsafeMutableBufferPointer({ Instant(canonicalBytes: UnsafeBufferPointer($0)) })
        else { return nil }
        self = value
    }

    /// Parses exactly the canonical form from bytes; nil for anything else.
    public init?(canonicalBytes b: UnsafeBufferPointer<UInt8>) {
        guard b.count == 24, b[4] == 0x2D, b[7] == 0x2D, b[10] == 0x54, b[13] == 0x3A, b[16] == 0x3A,
            b[19] == 0x2E, b[23] == 0x5A
        else { return nil }
        func number(_ start: Int, _ count: Int) -> Int? {
            var value = 0
            for index in start..<(start + count) {
                let digit = Int(b[index]) - 48
                guard digit >= 0 && digit <= 9 else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
            let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
            let milli = number(20, 3)
        else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        guard date.isValid, hour < 24, minute < 60, second < 60 else { return nil }
        self = LocalDateTime(date: date, hour: hour, minute: minute, second: second, millisecond: milli)
            .instant(offsetSeconds: 0)
    }
}

/// A timestamp as written in ISO 8601: either an absolute instant (it carried `Z` or an offset) or a
/// wall-clock time that still needs a time zone.
public enum ISO8601Timestamp: Hashable, Sendable {
    case instant(Instant)
    case local(LocalDateTime)

    /// Parses `YYYY-MM-DD[THH:MM[:SS[.fff]]][Z|±HH:MM|±HHMM|±HH]`; a space may stand for `T`.
    ///
    /// Fractions finer than a millisecond are truncated. A date alone is midnight. Returns nil when the
    /// text is not of this form or names an impossible date or time.
    public static func parse(_ text: String) -> ISO8601Timestamp? {
        var scanner = DigitScanner(Array(text.utf8))
        guard let year = scanner.number(width: 4), scanner.take(0x2D), let month = scanner.number(width: 2),
            scanner.take(0x2D), let day = scanner.number(width: 2)
        else { return nil }
        let date = CivilDate(year: year, month: month, day: day)
        guard date.isValid else { return nil }
        var hour = 0
        var minute = 0
        var second = 0
        var milli = 0
        if scanner.take(0x54) || scanner.take(0x74) || scanner.take(0x20) {
            guard let h = scanner.number(width: 2), scanner.take(0x3A), let m = scanner.number(width: 2) else {
                return nil
            }
            hour = h
            minute = m
            if scanner.take(0x3A) {
                guard let s = scanner.number(width: 2) else { return nil }
                second = s
                if scanner.take(0x2E) || scanner.take(0x2C) {
                    guard let (fraction, width) = scanner.digits(), width >= 1 else { return nil }
                    var scaled = fraction
                    var scaledWidth = width
                    while scaledWidth > 3 {
                        scaled /= 10
                        scaledWidth -= 1
                    }
                    while scaledWidth < 3 {
                        scaled *= 10
                        scaledWidth += 1
                    }
                    milli = scaled
                }
            }
        }
        guard hour < 24, minute < 60, second < 60 else { return nil }
        let local = LocalDateTime(date: date, hour: hour, minute: minute, second: second, millisecond: milli)
        if scanner.atEnd { return .local(local) }
        if scanner.take(0x5A) || scanner.take(0x7A) {
            return scanner.atEnd ? .instant(local.instant(offsetSeconds: 0)) : nil
        }
        let sign: Int
        if scanner.take(0x2B) {
            sign = 1
        } else if scanner.take(0x2D) {
            sign = -1
        } else {
            return nil
        }
        guard let offsetHours = scanner.number(width: 2) else { return nil }
        var offsetMinutes = 0
        if !scanner.atEnd {
            _ = scanner.take(0x3A)
            guard let m = scanner.number(width: 2) else { return nil }
            offsetMinutes = m
        }
        guard scanner.atEnd, offsetHours <= 18, offsetMinutes < 60 else { return nil }
        return .instant(local.instant(offsetSeconds: sign * (offsetHours * 3600 + offsetMinutes * 60)))
    }
}

/// A cursor over ASCII bytes for the small fixed grammars of timestamps.
struct DigitScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var atEnd: Bool { index == bytes.count }

    mutating func take(_ byte: UInt8) -> Bool {
        guard index < bytes.count, bytes[index] == byte else { return false }
        index += 1
        return true
    }

    mutating func number(width: Int) -> Int? {
        guard index + width <= bytes.count else { return nil }
        var value = 0
        for offset in 0..<width {
            let digit = Int(bytes[index + offset]) - 48
            guard digit >= 0 && digit <= 9 else { return nil }
            value = value * 10 + digit
        }
        index += width
        return value
    }

    mutating func digits() -> (Int, Int)? {
        var value = 0
        var width = 0
        while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
            if width < 9 { value = value * 10 + Int(bytes[index] - 48) }
            width += width < 9 ? 1 : 0
            index += 1
        }
        return width == 0 ? nil : (value, width)
    }
}
