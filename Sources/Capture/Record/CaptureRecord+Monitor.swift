extension CaptureRecord {
    /// The record of one Linux HCI monitor frame read live (HCI_CHANNEL_MONITOR, as btmon reads
    /// it): what a btsnoop datalink 2001 file holds for it. An HCI packet's opcode gives its
    /// type and direction (``MonitorOpcode/hciPacket``); any other opcode is kept with its
    /// parameters (``CapturedPacket/monitor(opcode:payload:)``).
    ///
    /// - Parameters:
    ///   - position: the record's 0-based position in the session (``index``).
    ///   - timestamp: microseconds since the Unix epoch.
    ///   - opcode: the frame's monitor opcode.
    ///   - controllerIndex: the frame's adapter index (0xFFFF: none).
    ///   - payload: the frame's data, without the 6-octet header.
    public init(position: Int, timestamp: Int64, monitorOpcode opcode: UInt16, controllerIndex: UInt16, payload: [UInt8]) {
        let decoded = LinkTypeDecoding.monitor(opcode: MonitorOpcode(rawValue: opcode), index: controllerIndex, payload: payload[...])
        self.init(index: position, timestamp: timestamp, direction: decoded.direction, controllerIndex: decoded.controllerIndex,
                  packet: decoded.packet, originalLength: payload.count, capturedLength: payload.count)
    }
}
