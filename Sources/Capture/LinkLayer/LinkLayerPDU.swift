import BLECore

/// The PDU of an LE link-layer packet: what sits between the access address and the CRC
/// (Core v5.4, Vol 6, Part B, 2.1). Every kind starts with a 2-octet header whose second
/// octet is the payload's Length.
public enum LinkLayerPDU: Hashable, Sendable, CustomStringConvertible {
    /// An advertising physical channel PDU (2.3).
    case advertising(AdvertisingChannelPDU)
    /// A data physical channel PDU of an ACL connection (2.4).
    case data(DataChannelPDU)
    /// A connected or broadcast isochronous PDU (2.6), kept raw: the first header octet
    /// (LLID and flags) and the payload. Only a pseudo-header's PDU type identifies these.
    case isochronous(headerBits: UInt8, payload: [UInt8])

    /// Appends the PDU's header and payload.
    public func write(to w: inout ByteWriter) {
        switch self {
        case let .advertising(pdu): pdu.write(to: &w)
        case let .data(pdu): pdu.write(to: &w)
        case let .isochronous(headerBits, payload):
            w.writeUInt8(headerBits)
            w.writeUInt8(UInt8(truncatingIfNeeded: payload.count))
            w.writeBytes(payload)
        }
    }

    /// The PDU's octets (header and payload), as the CRC covers them.
    public var encoded: [UInt8] {
        var w = ByteWriter(capacity: 40)
        write(to: &w)
        return w.bytes
    }

    public var description: String {
        switch self {
        case let .advertising(pdu): return pdu.description
        case let .data(pdu): return pdu.description
        case let .isochronous(_, payload): return "isochronous PDU, \(payload.count) octets"
        }
    }
}
