import BLECore

/// An L2CAP PDU put back together from HCI ACL Data packets, with the connection it came on.
public struct ACLReassembledPDU: Hashable, Sendable, CustomStringConvertible {
    /// The Connection_Handle of the ACL Data packets (12 bits).
    public var handle: UInt16
    /// The complete B-frame (Core v5.4, Vol 3, Part A, 3.1).
    public var frame: L2CAPBasicFrame

    /// A PDU that arrived on `handle` (12 bits).
    public init(handle: UInt16, frame: L2CAPBasicFrame) {
        self.handle = handle
        self.frame = frame
    }

    /// "handle 0x0040: L2CAP ATT (0x0004), 7 octets".
    public var description: String { "handle \(Hex.hex16(handle)): \(frame)" }
}

/// Something the ``ACLReassembler`` had to drop or trim, with the connection it happened on.
///
/// None of these stops reassembly: the reassembler keeps every good PDU around the fault.
public enum ACLReassemblyDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// A continuing fragment (Packet_Boundary_Flag 0b01) arrived with no PDU under way on its
    /// handle; its `octets` were dropped (Core v5.4, Vol 4, Part E, 5.4.2).
    case continuationWithoutStart(handle: UInt16, octets: Int)

    /// A start fragment arrived while a PDU on the same handle was still incomplete, or the
    /// handle was reset: the incomplete PDU was dropped.
    ///
    /// - Parameters:
    ///   - expectedOctets: the PDU's full size, 4 + Length, or nil when fewer than 4 octets had
    ///     arrived and the basic L2CAP header was still unknown.
    ///   - receivedOctets: the octets collected before it was abandoned.
    case incompletePDUAbandoned(handle: UInt16, expectedOctets: Int?, receivedOctets: Int)

    /// The fragment that completed a PDU carried `excessOctets` more than 4 + Length; the PDU
    /// was delivered and the excess dropped.
    case excessOctets(handle: UInt16, pduOctets: Int, excessOctets: Int)

    /// The PDU's Length field announced `length` payload octets, more than the reassembler's
    /// `limit`; the PDU is dropped, and so are its later fragments.
    case pduTooLong(handle: UInt16, length: Int, limit: Int)

    /// A continuing fragment of a PDU already dropped as too long; its `octets` were dropped.
    case continuationDiscarded(handle: UInt16, octets: Int)

    /// A PDU started on a handle while `limit` other handles were already mid-reassembly; the
    /// new PDU was dropped (its continuations will then report ``continuationWithoutStart(handle:octets:)``).
    case tooManyPendingHandles(handle: UInt16, limit: Int)

    /// The connection handle the diagnostic is about.
    public var handle: UInt16 {
        switch self {
        case .continuationWithoutStart(let h, _), .incompletePDUAbandoned(let h, _, _),
             .excessOctets(let h, _, _), .pduTooLong(let h, _, _),
             .continuationDiscarded(let h, _), .tooManyPendingHandles(let h, _):
            return h
        }
    }

    /// One line naming the handle and what was dropped, in octets.
    public var description: String { "handle \(Hex.hex16(handle)): \(reason)" }

    /// What was dropped, in octets, without the handle: for links that have none of their own,
    /// such as a connection captured over the air.
    public var reason: String {
        switch self {
        case let .continuationWithoutStart(_, octets):
            return "continuation fragment without a start, \(octets) octets dropped"
        case let .incompletePDUAbandoned(_, expected, received):
            if let expected {
                return "incomplete L2CAP PDU abandoned, \(received) of \(expected) octets received"
            }
            return "incomplete L2CAP PDU abandoned, \(received) octets received before its header was complete"
        case let .excessOctets(_, pdu, excess):
            return "\(excess) octets beyond the \(pdu)-octet L2CAP PDU dropped"
        case let .pduTooLong(_, length, limit):
            return "L2CAP Length \(length) exceeds the limit of \(limit), PDU dropped"
        case let .continuationDiscarded(_, octets):
            return "\(octets) octets of a dropped oversized PDU discarded"
        case let .tooManyPendingHandles(_, limit):
            return "\(limit) handles already mid-reassembly, new PDU dropped"
        }
    }
}

/// What one HCI ACL Data packet produced in the ``ACLReassembler``.
///
/// - `pdu` set, `diagnostics` empty: the packet completed a PDU (the normal case).
/// - both empty: the packet was kept, waiting for more fragments.
/// - `diagnostics` not empty: something was dropped or trimmed, in the order it happened. A
///   packet can report a fault and still complete or start a PDU: a start fragment that
///   abandons an incomplete PDU, or a completing fragment with excess octets.
public struct ACLReassemblyOutcome: Hashable, Sendable {
    /// The PDU this packet completed, if any.
    public var pdu: ACLReassembledPDU?
    /// What went wrong with this packet or the PDU it interrupted; usually empty.
    public var diagnostics: [ACLReassemblyDiagnostic]
    /// The start of the PDU this packet showed to be too long (reported in ``diagnostics`` as
    /// ``ACLReassemblyDiagnostic/pduTooLong(handle:length:limit:)``), for a host that must still
    /// answer it; nil otherwise.
    public var oversized: ACLOversizedPDU?

    /// An outcome; the defaults, no PDU and no diagnostic, mean "waiting for more".
    public init(pdu: ACLReassembledPDU? = nil, diagnostics: [ACLReassemblyDiagnostic] = [], oversized: ACLOversizedPDU? = nil) {
        self.pdu = pdu
        self.diagnostics = diagnostics
        self.oversized = oversized
    }

    /// Whether the packet produced neither a PDU nor a diagnostic: it is waiting for more.
    public var isAwaitingMoreFragments: Bool { pdu == nil && diagnostics.isEmpty }
}
