import Testing

@testable import StintCore

/// The clock rules of `HybridLogicalClock` one case at a time; `HLCCausalityTests` checks them under random
/// skewed and drifting clocks.
@Suite struct HybridLogicalClockTests {
    static func hlc(_ milliseconds: Int64, _ counter: UInt32) -> HLC {
        HLC(milliseconds: milliseconds, counter: counter)!
    }
    static func instant(_ milliseconds: Int64) -> Instant { Instant(milliseconds: milliseconds) }

    @Test func tickTakesThePhysicalTimeWhenItAdvances() throws {
        var clock = HybridLogicalClock(last: Self.hlc(1_000, 7))
        #expect(try clock.tick(now: Self.instant(1_001)) == Self.hlc(1_001, 0))
        #expect(clock.last == Self.hlc(1_001, 0))
    }

    @Test(arguments: [Int64(1_000), 999, 0, -5])
    func tickBumpsTheCounterWhenThePhysicalTimeDoesNotAdvance(now: Int64) throws {
        var clock = HybridLogicalClock(last: Self.hlc(1_000, 7))
        #expect(try clock.tick(now: Self.instant(now)) == Self.hlc(1_000, 8))
        #expect(try clock.tick(now: Self.instant(now)) == Self.hlc(1_000, 9))
    }

    @Test func aFreshClockStartsAtThePhysicalTime() throws {
        var clock = HybridLogicalClock()
        #expect(try clock.tick(now: Self.instant(1_764_500_000_000)) == Self.hlc(1_764_500_000_000, 0))
        var atEpoch = HybridLogicalClock()
        #expect(try atEpoch.tick(now: Self.instant(0)) == Self.hlc(0, 1))
    }

    /// Kulkarni et al.'s receive rule, case by case: l' = max(l, l_remote, pt), and the counter.
    @Test(arguments: [
        // Physical time ahead of both: counter 0.
        (Self.hlc(1_000, 3), Self.hlc(1_500, 9), Int64(2_000), Self.hlc(2_000, 0)),
        // Local and remote at the same millisecond, ahead of pt: the greater counter + 1.
        (Self.hlc(1_000, 3), Self.hlc(1_000, 9), Int64(900), Self.hlc(1_000, 10)),
        (Self.hlc(1_000, 9), Self.hlc(1_000, 3), Int64(900), Self.hlc(1_000, 10)),
        // Local ahead: the local counter + 1.
        (Self.hlc(1_200, 3), Self.hlc(1_000, 9), Int64(1_100), Self.hlc(1_200, 4)),
        // Remote ahead (a device whose clock is fast): the remote counter + 1.
        (Self.hlc(1_000, 3), Self.hlc(5_000, 9), Int64(1_100), Self.hlc(5_000, 10)),
        // pt equal to the greater millisecond counts as not advancing.
        (Self.hlc(1_000, 3), Self.hlc(1_200, 0), Int64(1_200), Self.hlc(1_200, 1)),
    ])
    func receiveFollowsKulkarni(local: HLC, remote: HLC, now: Int64, expected: HLC) throws {
        var clock = HybridLogicalClock(last: local)
        let received = try clock.receive(remote, now: Self.instant(now))
        #expect(received == expected)
        #expect(received > local && received > remote)
        #expect(clock.last == expected)
    }

    /// Random readings, counters near their maximum included: a receive is after both readings, never behind
    /// the physical time, and takes the greatest of the three milliseconds unless a full counter carried.
    @Test func receiveIsAfterBothReadingsAndFollowsThePhysicalTime() throws {
        var random = SplitMix64(seed: 0x41C)
        func reading() -> HLC {
            let counter: UInt32 = Bool.random(using: &random) ? .max - UInt32.random(in: 0...2, using: &random) : 0
            return Self.hlc(Int64.random(in: 1_000...1_010, using: &random), counter)
        }
        for _ in 0..<2_000 {
            let local = reading()
            let remote = reading()
            let now = Int64.random(in: 995...1_015, using: &random)
            var clock = HybridLogicalClock(last: local)
            let received = try clock.receive(remote, now: Self.instant(now))
            #expect(received > local && received > remote && received.milliseconds >= now)
            let greatest = max(local.milliseconds, remote.milliseconds, now)
            let carried = max(local, remote).counter == .max && max(local, remote).milliseconds >= now
            #expect(received.milliseconds == greatest + (carried ? 1 : 0), "\(local) \(remote) \(now)")
            #expect(clock.last == received)
        }
    }

    @Test func aFullCounterCarriesIntoTheNextMillisecond() throws {
        var clock = HybridLogicalClock(last: Self.hlc(1_000, .max - 1))
        #expect(try clock.tick(now: Self.instant(1_000)) == Self.hlc(1_000, .max))
        #expect(try clock.tick(now: Self.instant(1_000)) == Self.hlc(1_001, 0))
        #expect(try clock.tick(now: Self.instant(1_000)) == Self.hlc(1_001, 1))
        var receiving = HybridLogicalClock(last: Self.hlc(10, 0))
        #expect(try receiving.receive(Self.hlc(1_000, .max), now: Self.instant(5)) == Self.hlc(1_001, 0))
    }

    @Test func theClockRefusesToGoPastItsMaximumAndStaysWhereItWas() throws {
        var clock = HybridLogicalClock(last: .maximum)
        #expect(throws: SyncError.self) { _ = try clock.tick(now: Self.instant(0)) }
        #expect(clock.last == .maximum)
        do {
            _ = try clock.tick(now: Self.instant(HLC.maximumMilliseconds + 1))
            Issue.record("a reading after the maximum was issued")
        } catch {
            #expect(error.code == .clockExhausted)
            #expect(error.category == .refused)
        }

        var receiving = HybridLogicalClock(last: Self.hlc(1_000, 0))
        #expect(throws: SyncError.self) { _ = try receiving.receive(.maximum, now: Self.instant(2_000)) }
        #expect(receiving.last == Self.hlc(1_000, 0), "a failed receive changed the clock")
        #expect(try receiving.tick(now: Self.instant(2_000)) == Self.hlc(2_000, 0))
    }

    @Test func readingsAreLimitedToTheInstantsTheLogCanHold() {
        #expect(HLC(milliseconds: -1, counter: 0) == nil)
        #expect(HLC(milliseconds: HLC.maximumMilliseconds + 1, counter: 0) == nil)
        #expect(Instant(milliseconds: HLC.maximumMilliseconds).iso8601 == "9999-12-31T23:59:59.999Z")
        #expect(HLC(impliedBy: Self.instant(1_764_500_000_123)) == Self.hlc(1_764_500_000_123, 0))
        #expect(HLC(impliedBy: Self.instant(-1)) == .zero)
    }

    @Test func readingsCompareByMillisecondsThenCounter() {
        #expect(Self.hlc(1, .max) < Self.hlc(2, 0))
        #expect(Self.hlc(2, 0) < Self.hlc(2, 1))
        #expect(!(Self.hlc(2, 1) < Self.hlc(2, 1)))
        #expect(HLC.zero < Self.hlc(0, 1) && Self.hlc(HLC.maximumMilliseconds, 0) < .maximum)
    }

    /// Rule 9: a reading more than a day ahead of the reader's clock is flagged; exactly a day is not.
    @Test(
        arguments: [
            (86_400_000, false), (86_400_001, true), (0, false), (-3_600_000, false), (400 * 86_400_000, true),
        ] as [(Int64, Bool)])
    func readingsMoreThanADayAheadAreFlagged(ahead: Int64, flagged: Bool) {
        let now: Int64 = 1_764_500_000_000
        #expect(Self.hlc(now + ahead, 0).isFarAhead(of: Self.instant(now)) == flagged)
    }
}

/// The envelope's form of an `hlc`, `[ms,counter]`, and the strict parser's refusals.
@Suite struct HLCJSONTests {
    @Test(arguments: ["[0,0]", "[1764500000000,3]", "[253402300799999,4294967295]"])
    func canonicalFormRoundTrips(text: String) throws {
        let reading = try HLC(json: JSON.parse(text))
        #expect(String(decoding: reading.json.encoded(), as: UTF8.self) == text)
        #expect(reading.description == text)
    }

    @Test(arguments: [
        ("{\"ms\":0,\"counter\":0}", SyncError.Code.hlcNotAnArray),
        ("\"[0,0]\"", .hlcNotAnArray),
        ("1764500000000", .hlcNotAnArray),
        ("null", .hlcNotAnArray),
        ("[]", .hlcArity),
        ("[1764500000000]", .hlcArity),
        ("[1764500000000,0,0]", .hlcArity),
        ("[1764500000000.5,0]", .hlcNotAnInteger),
        ("[1764500000000,0.5]", .hlcNotAnInteger),
        ("[\"1764500000000\",0]", .hlcNotAnInteger),
        ("[1764500000000,null]", .hlcNotAnInteger),
        ("[true,0]", .hlcNotAnInteger),
        ("[[1],0]", .hlcNotAnInteger),
        ("[1e300,0]", .hlcNotAnInteger),
        ("[-1,0]", .hlcNegative),
        ("[1764500000000,-1]", .hlcNegative),
        ("[-9223372036854775808,0]", .hlcNegative),
        ("[253402300800000,0]", .hlcOutOfRange),
        ("[9223372036854775807,0]", .hlcOutOfRange),
        ("[1764500000000,4294967296]", .hlcOutOfRange),
        ("[1764500000000,9223372036854775807]", .hlcOutOfRange),
    ])
    func parserRefuses(text: String, code: SyncError.Code) throws {
        let json = try JSON.parse(text)
        do {
            let reading = try HLC(json: json)
            Issue.record("\(text) was read as \(reading)")
        } catch {
            #expect(error.code == code, "\(text): \(error.message)")
            #expect(error.category == .damaged)
        }
    }
}
