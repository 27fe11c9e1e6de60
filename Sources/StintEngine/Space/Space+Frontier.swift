public import StintCore
import StintLog

extension Space {
    /// The logs of the merged history: the own log (read by `own`, or a new reader) and every mirror, in
    /// device order.
    func logs(own: LogReader? = nil) throws(StintError) -> [(device: DeviceID, reader: LogReader)] {
        let ownReader: LogReader
        if let own {
            ownReader = own
        } else {
            do throws(LogError) {
                ownReader = try LogReader(path: log, options: options.readOptions)
            } catch {
                throw StintError(error)
            }
        }
        var logs = [(device: device, reader: ownReader)]
        for mirrored in try mirroredDevices() where mirrored != device {
            if let reader = try mirrorReader(of: mirrored) { logs.append((mirrored, reader)) }
        }
        return logs.sorted { $0.device < $1.device }
    }

    /// Per device, the last event this replica holds and its head; the devices in `skipped` are left out
    /// (their logs are not read).
    ///
    /// The heads commit to each log: each is the one its writer vouched for in the `checked` file, where the
    /// log's last segment still has the bytes that writer left (``LogReader/vouchedLastEvent()``), or else read
    /// with the chain checked across the last segment.
    func lastEvents(own: LogReader? = nil, skipping skipped: Set<DeviceID> = []) throws(StintError)
        -> [DeviceID: (event: RecordedEvent, head: LogHead)]
    {
        var unsettled: Set<DeviceID> = []
        return try lastEvents(own: own, skipping: skipped, unsettled: &unsettled)
    }

    /// ``lastEvents(own:skipping:)``, noting in `unsettled` the devices whose log's end was vouched for by
    /// hashing its active segment, whose fingerprint was not settled (``LogConfiguration/settlesActiveSegment``)
    /// but could be.
    func lastEvents(own: LogReader?, skipping skipped: Set<DeviceID>, unsettled: inout Set<DeviceID>)
        throws(StintError) -> [DeviceID: (event: RecordedEvent, head: LogHead)]
    {
        var last: [DeviceID: (event: RecordedEvent, head: LogHead)] = [:]
        for (device, reader) in try logs(own: own) where !skipped.contains(device) {
            do throws(LogError) {
                if let vouched = try reader.vouchedLastEvent() {
                    last[device] = (vouched.event, vouched.head)
                    if vouched.unsettled { unsettled.insert(device) }
                } else if let event = try reader.lastEvent(checkingChain: true) {
                    last[device] = (event, LogHead(of: event))
                }
            } catch {
                throw StintError(error)
            }
        }
        return last
    }

    /// The replica's frontier: per device the last `seq` it holds and the SHA-256 of that line
    /// (docs/decisions/0007 §5.2); ``Frontier/hash`` is what `stint verify --merged` prints.
    public func frontier() throws(StintError) -> Frontier {
        try frontier(own: nil)
    }

    /// The frontier, reading the own log with `own`.
    func frontier(own: LogReader?) throws(StintError) -> Frontier {
        Frontier(heads: try lastEvents(own: own).mapValues { Frontier.Head(seq: $0.head.seq, hash: $0.head.hash) })
    }
}
