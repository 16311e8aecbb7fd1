import BLECore
import HCI

/// Puts L2CAP PDUs back together from HCI ACL Data packets, per connection handle
/// (Core v5.4, Vol 3, Part A, 7.2; Vol 4, Part E, 5.4.2).
///
/// A start fragment (Packet_Boundary_Flag 0b00, 0b10 or 0b11) opens a PDU on its handle; the
/// basic L2CAP header in its first 4 octets says how long the PDU is (4 + Length). Continuing
/// fragments (0b01) append to it until that many octets have arrived. A PDU that fits in one
/// packet is delivered without being buffered.
///
/// Faults never stop reassembly and never cost good data around them; each is reported as an
/// ``ACLReassemblyDiagnostic``. A value type with no I/O: feed it packets, read outcomes. Use one
/// reassembler per direction: host-to-controller and controller-to-host fragments on the same
/// handle are separate streams (a capture holds both).
///
/// ```swift
/// var reassembler = ACLReassembler()
/// let outcome = reassembler.push(packet)
/// if let pdu = outcome.pdu { dispatch(pdu.handle, pdu.frame) }
/// for problem in outcome.diagnostics { log(problem) }
/// ```
public struct ACLReassembler: Sendable {
    /// Bounds on what the reassembler buffers.
    public struct Configuration: Hashable, Sendable {
        /// The largest L2CAP Length (information payload octets) accepted; longer PDUs are
        /// dropped with ``ACLReassemblyDiagnostic/pduTooLong(handle:length:limit:)``. The default,
        /// 65535, accepts every PDU the Length field can describe; a host sets an MTU-style
        /// bound such as its largest ATT_MTU or the SMP MTU of 65.
        public var maximumPayloadLength: Int
        /// How many handles may have an incomplete PDU at once; a PDU starting on a further
        /// handle is dropped with ``ACLReassemblyDiagnostic/tooManyPendingHandles(handle:limit:)``,
        /// unless ``evictsLeastRecentWhenFull``.
        public var maximumPendingHandles: Int
        /// When the pending handles are full, make room for a new PDU by abandoning the one
        /// touched least recently (reported as ``ACLReassemblyDiagnostic/incompletePDUAbandoned(handle:expectedOctets:receivedOctets:)``)
        /// instead of dropping the new one. Right for a capture decoder, where a missing packet
        /// leaves a PDU incomplete forever and no Disconnection Complete may ever come; a host,
        /// whose handles are live connections, keeps the default (false).
        public var evictsLeastRecentWhenFull: Bool

        /// Bounds for a reassembler; negative values count as zero.
        public init(maximumPayloadLength: Int = L2CAPBasicFrame.maximumPayloadLength, maximumPendingHandles: Int = 16,
                    evictsLeastRecentWhenFull: Bool = false) {
            self.maximumPayloadLength = max(0, maximumPayloadLength)
            self.maximumPendingHandles = max(0, maximumPendingHandles)
            self.evictsLeastRecentWhenFull = evictsLeastRecentWhenFull
        }
    }

    /// What is under way on one handle.
    enum Pending: Sendable {
        /// Octets of a PDU collected so far (fewer than its full size, or fewer than 4).
        case collecting([UInt8])
        /// A PDU dropped as too long, with the octets of it still to come.
        case discarding(remaining: Int)
    }

    /// The bounds this reassembler enforces.
    public let configuration: Configuration
    var pending: [UInt16: Pending] = [:]
    /// When each pending handle last received a fragment, on the ``clock`` of pushed packets.
    var touched: [UInt16: UInt64] = [:]
    var clock: UInt64 = 0

    /// An empty reassembler.
    public init(configuration: Configuration = Configuration()) {
        self.configuration = configuration
    }

    /// The number of handles with a PDU under way (collecting, or discarding an oversized one).
    public var pendingHandleCount: Int { pending.count }

    /// Whether a PDU is under way on `handle`.
    public func isReassembling(handle: UInt16) -> Bool { pending[handle & 0x0FFF] != nil }

    /// Feeds one ACL Data packet.
    ///
    /// - Returns: the PDU it completed, if any, and what had to be dropped on the way.
    public mutating func push(_ packet: HCIACLDataPacket) -> ACLReassemblyOutcome {
        let handle = packet.handle
        clock &+= 1
        defer { touched[handle] = pending[handle] == nil ? nil : clock }
        if packet.packetBoundary.isStart {
            var diagnostics: [ACLReassemblyDiagnostic] = []
            if !pending.isEmpty, let old = pending.removeValue(forKey: handle),
               let abandoned = Self.abandonment(of: old, handle: handle) {
                diagnostics.append(abandoned)
            }
            return start(handle: handle, data: packet.data, diagnostics: diagnostics)
        }

        guard let state = pending.removeValue(forKey: handle) else {
            return ACLReassemblyOutcome(diagnostics: [.continuationWithoutStart(handle: handle, octets: packet.data.count)])
        }
        switch state {
        case .discarding(let remaining):
            if packet.data.count < remaining {
                pending[handle] = .discarding(remaining: remaining - packet.data.count)
            }
            return ACLReassemblyOutcome(diagnostics: [.continuationDiscarded(handle: handle, octets: packet.data.count)])
        case .collecting(var buffer):
            buffer.append(contentsOf: packet.data)
            return collected(handle: handle, buffer: buffer, diagnostics: [])
        }
    }

    /// Drops whatever is under way on `handle`, as when its connection ends
    /// (HCI Disconnection Complete).
    ///
    /// - Returns: ``ACLReassemblyDiagnostic/incompletePDUAbandoned(handle:expectedOctets:receivedOctets:)``
    ///   when an incomplete PDU was dropped, else nil.
    @discardableResult
    public mutating func reset(handle: UInt16) -> ACLReassemblyDiagnostic? {
        let handle = handle & 0x0FFF
        touched[handle] = nil
        guard let old = pending.removeValue(forKey: handle) else { return nil }
        return Self.abandonment(of: old, handle: handle)
    }

    /// Drops everything under way on every handle, as when the controller is reset.
    public mutating func resetAll() {
        pending.removeAll()
        touched.removeAll()
    }

    /// Whether a new PDU may be buffered: there is room, or, when ``Configuration/evictsLeastRecentWhenFull``,
    /// room was made by abandoning the least recently touched PDU (its diagnostic is appended).
    mutating func makeRoom(for handle: UInt16, diagnostics: inout [ACLReassemblyDiagnostic]) -> Bool {
        if pending.count < configuration.maximumPendingHandles { return true }
        guard configuration.evictsLeastRecentWhenFull,
              let victim = pending.keys.min(by: { touched[$0, default: 0] < touched[$1, default: 0] }),
              let old = pending.removeValue(forKey: victim) else {
            diagnostics.append(.tooManyPendingHandles(handle: handle, limit: configuration.maximumPendingHandles))
            return false
        }
        touched[victim] = nil
        if let abandoned = Self.abandonment(of: old, handle: victim) { diagnostics.append(abandoned) }
        return true
    }

    // MARK: - Steps

    /// A start fragment: deliver it at once when it holds a whole PDU, else start collecting.
    mutating func start(handle: UInt16, data: [UInt8], diagnostics: [ACLReassemblyDiagnostic]) -> ACLReassemblyOutcome {
        var diagnostics = diagnostics
        if data.count >= L2CAPBasicFrame.headerLength {
            let length = Int(data[0]) | Int(data[1]) << 8
            if length > configuration.maximumPayloadLength {
                return tooLong(handle: handle, length: length, octets: data[...], diagnostics: diagnostics)
            }
            let total = L2CAPBasicFrame.headerLength + length
            if data.count >= total {
                return complete(handle: handle, octets: data[...], total: total, diagnostics: diagnostics)
            }
        }
        guard makeRoom(for: handle, diagnostics: &diagnostics) else {
            return ACLReassemblyOutcome(diagnostics: diagnostics)
        }
        var buffer: [UInt8] = []
        if data.count >= L2CAPBasicFrame.headerLength {
            // Room for a typical PDU only: the Length field is the sender's claim, and reserving
            // all of it would let 4 octets of input hold 64 KiB of memory. Larger PDUs grow.
            buffer.reserveCapacity(min(L2CAPBasicFrame.headerLength + (Int(data[0]) | Int(data[1]) << 8), 1024))
        }
        buffer.append(contentsOf: data)
        pending[handle] = .collecting(buffer)
        return ACLReassemblyOutcome(diagnostics: diagnostics)
    }

    /// After a continuation: deliver, keep collecting, or drop as too long.
    mutating func collected(handle: UInt16, buffer: [UInt8], diagnostics: [ACLReassemblyDiagnostic]) -> ACLReassemblyOutcome {
        guard buffer.count >= L2CAPBasicFrame.headerLength else {
            pending[handle] = .collecting(buffer)
            return ACLReassemblyOutcome(diagnostics: diagnostics)
        }
        let length = Int(buffer[0]) | Int(buffer[1]) << 8
        if length > configuration.maximumPayloadLength {
            return tooLong(handle: handle, length: length, octets: buffer[...], diagnostics: diagnostics)
        }
        let total = L2CAPBasicFrame.headerLength + length
        guard buffer.count >= total else {
            pending[handle] = .collecting(buffer)
            return ACLReassemblyOutcome(diagnostics: diagnostics)
        }
        return complete(handle: handle, octets: buffer[...], total: total, diagnostics: diagnostics)
    }

    /// A whole PDU is in `octets` (total octets of it, maybe more after).
    func complete(handle: UInt16, octets: ArraySlice<UInt8>, total: Int, diagnostics: [ACLReassemblyDiagnostic]) -> ACLReassemblyOutcome {
        var diagnostics = diagnostics
        let first = octets.startIndex
        if octets.count > total {
            diagnostics.append(.excessOctets(handle: handle, pduOctets: total, excessOctets: octets.count - total))
        }
        let cid = UInt16(octets[first + 2]) | UInt16(octets[first + 3]) << 8
        let payload = Array(octets[(first + L2CAPBasicFrame.headerLength)..<(first + total)])
        let frame = L2CAPBasicFrame(checkedChannelID: L2CAPChannelID(rawValue: cid), payload: payload)
        return ACLReassemblyOutcome(pdu: ACLReassembledPDU(handle: handle, frame: frame), diagnostics: diagnostics)
    }

    /// A PDU longer than the limit, whose first `octets` (its basic header and more) have
    /// arrived: report it with its start, and skip the rest of it if more is to come.
    mutating func tooLong(handle: UInt16, length: Int, octets: ArraySlice<UInt8>, diagnostics: [ACLReassemblyDiagnostic]) -> ACLReassemblyOutcome {
        var diagnostics = diagnostics
        diagnostics.append(.pduTooLong(handle: handle, length: length, limit: configuration.maximumPayloadLength))
        let first = octets.startIndex
        let cid = UInt16(octets[first + 2]) | UInt16(octets[first + 3]) << 8
        let payload = octets.dropFirst(L2CAPBasicFrame.headerLength).prefix(ACLOversizedPDU.keptPayloadOctets)
        let start = ACLOversizedPDU(handle: handle, channelID: L2CAPChannelID(rawValue: cid), length: length,
                                    leadingPayload: Array(payload))
        let remaining = L2CAPBasicFrame.headerLength + length - octets.count
        if remaining > 0, makeRoom(for: handle, diagnostics: &diagnostics) {
            pending[handle] = .discarding(remaining: remaining)
        }
        return ACLReassemblyOutcome(diagnostics: diagnostics, oversized: start)
    }

    /// The diagnostic for dropping `state`; nil for an oversized PDU, which was reported already.
    static func abandonment(of state: Pending, handle: UInt16) -> ACLReassemblyDiagnostic? {
        guard case .collecting(let buffer) = state else { return nil }
        let expected = buffer.count >= L2CAPBasicFrame.headerLength
            ? L2CAPBasicFrame.headerLength + (Int(buffer[0]) | Int(buffer[1]) << 8) : nil
        return .incompletePDUAbandoned(handle: handle, expectedOctets: expected, receivedOctets: buffer.count)
    }
}
