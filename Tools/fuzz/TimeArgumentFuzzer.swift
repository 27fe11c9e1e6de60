// libFuzzer target: TimeArgument.parse on arbitrary text, in zones with DST gaps, 30-minute shifts and
// unusual offsets. Built and run by Tools/fuzz/run.sh.
import StintCore

let zones = ["UTC", "Europe/Berlin", "America/New_York", "Australia/Lord_Howe", "Pacific/Chatham", "Asia/Kathmandu"]
let calendars = zones.compactMap { LogCalendar(timeZone: $0, firstWeekday: 2) }
let nows = [1_795_957_629_123, 1_774_746_000_000, 1_793_574_000_000, 0, 253_402_300_799_000].map {
    Instant(milliseconds: $0)
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzTimeArgument(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    guard size >= 1, let data else { return 0 }
    let selector = Int(data[0])
    let text = String(decoding: UnsafeBufferPointer(start: data + 1, count: size - 1), as: UTF8.self)
    let calendar = calendars[selector % calendars.count]
    let now = nows[(selector / calendars.count) % nows.count]
    if let parsed = try? TimeArgument.parse(text, now: now, calendar: calendar) {
        _ = parsed.instant.iso8601
        _ = calendar.date(of: parsed.instant)
    }
    _ = ISO8601Timestamp.parse(text)
    return 0
}
