/// One record of a capture file, in a form that does not depend on the file format.
///
/// Timestamps are microseconds since the Unix epoch (1970-01-01 00:00:00 UTC); formats that
/// store finer resolution (pcap with nanosecond magic, pcapng with `if_tsresol`) keep the
/// rest in ``subMicrosecondNanoseconds``.
public struct CaptureRecord: Hashable, Sendable, CustomStringConvertible {
    /// The 0-based position of the record among the file's packet records.
    public var index: Int
    /// Microseconds since the Unix epoch, rounded down (0 for a pcapng Simple Packet Block,
    /// which has no timestamp).
    public var timestamp: Int64
    /// Nanoseconds beyond ``timestamp`` (0...999) when the file is finer than a microsecond.
    public var subMicrosecondNanoseconds: UInt16
    /// Which way the packet crossed the host-controller interface, when the format says.
    public var direction: CaptureDirection
    /// The Linux controller index (hciN) for monitor records; 0xFFFF is the monitor's
    /// "no controller" index (HCI_DEV_NONE) used by system notes and user logging. Nil for
    /// formats that do not record it.
    public var controllerIndex: UInt16?
    /// The pcapng interface the record was captured on (Interface Description Block number
    /// within its section); nil for btsnoop and pcap.
    public var interfaceID: UInt32?
    /// The btsnoop record's Cumulative Drops field; nil for other formats.
    public var cumulativeDrops: UInt32?
    /// The decoded record.
    public var packet: CapturedPacket
    /// The record's octets as they were on the wire, before any capture truncation
    /// (the format's original-length field, including pseudo-headers and the H4 indicator).
    public var originalLength: Int
    /// The record's octets stored in the file (the format's captured/included length).
    public var capturedLength: Int
    /// Why the file's timestamp for this record cannot be represented (before or after the
    /// 64-bit microsecond range, or an interface resolution finer than it can count); then
    /// ``timestamp`` is 0 and only the packet is to be trusted. Nil for every ordinary record.
    public var timestampError: CaptureError?

    /// A record; see the properties for each field's meaning and units.
    public init(index: Int, timestamp: Int64, subMicrosecondNanoseconds: UInt16 = 0,
                direction: CaptureDirection = .unknown, controllerIndex: UInt16? = nil,
                interfaceID: UInt32? = nil, cumulativeDrops: UInt32? = nil,
                packet: CapturedPacket, originalLength: Int, capturedLength: Int, timestampError: CaptureError? = nil) {
        self.index = index
        self.timestamp = timestamp
        self.subMicrosecondNanoseconds = subMicrosecondNanoseconds
        self.direction = direction
        self.controllerIndex = controllerIndex
        self.interfaceID = interfaceID
        self.cumulativeDrops = cumulativeDrops
        self.packet = packet
        self.originalLength = originalLength
        self.capturedLength = capturedLength
        self.timestampError = timestampError
    }

    /// Nanoseconds since the Unix epoch; nil when that does not fit in 64 bits (after 2262).
    public var timestampNanoseconds: Int64? {
        let (product, overflow) = timestamp.multipliedReportingOverflow(by: 1000)
        if overflow { return nil }
        let (sum, overflow2) = product.addingReportingOverflow(Int64(subMicrosecondNanoseconds))
        return overflow2 ? nil : sum
    }

    /// Whether the capture kept fewer octets than were on the wire.
    public var isTruncated: Bool { capturedLength < originalLength }

    /// "#12 1735570834.608918 host->controller HCI Command, 3 octets".
    public var description: String {
        let seconds = timestamp >= 0 ? timestamp / 1_000_000 : (timestamp + 1) / 1_000_000 - 1
        let micros = timestamp - seconds * 1_000_000
        var fraction = String(micros)
        fraction = String(repeating: "0", count: 6 - fraction.count) + fraction
        if subMicrosecondNanoseconds != 0 {
            let ns = String(subMicrosecondNanoseconds)
            fraction += String(repeating: "0", count: 3 - ns.count) + ns
        }
        var line = "#\(index) \(seconds).\(fraction)"
        if let controllerIndex { line += " hci\(controllerIndex)" }
        if direction != .unknown { line += " \(direction)" }
        return line + " " + packet.description
    }
}
