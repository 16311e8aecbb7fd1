import BLECore

/// One HCI packet of any type, as an H4 (UART) transport frames it: a one-octet packet
/// indicator, then the packet (Core v5.4, Vol 4, Part A, 2).
///
/// ```swift
/// let packet = try HCIPacket(h4: [0x04, 0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00])
/// // .event(HCIEventPacket(code: .commandComplete, parameters: [0x01, 0x03, 0x0C, 0x00]))
/// packet.h4Encoded   // the same seven octets
/// ```
public enum HCIPacket: Hashable, Sendable {
    /// An HCI Command packet (indicator 0x01).
    case command(HCICommandPacket)
    /// An HCI ACL Data packet (indicator 0x02).
    case acl(HCIACLDataPacket)
    /// An HCI Synchronous Data packet (indicator 0x03).
    case sco(HCISynchronousDataPacket)
    /// An HCI Event packet (indicator 0x04).
    case event(HCIEventPacket)
    /// An HCI ISO Data packet (indicator 0x05).
    case iso(HCIISODataPacket)

    /// Decodes an H4 frame: the packet indicator, then exactly one packet.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` for
    ///   "HCI packet indicator" when `h4` is empty; ``BLEDecodingError/invalidValue(field:offset:reason:)``
    ///   for it when the indicator is not one of 0x01...0x05; otherwise the packet's own errors,
    ///   with offsets counted from the indicator (the packet starts at offset 1).
    public init(h4: ArraySlice<UInt8>) throws(BLEDecodingError) {
        guard let indicator = h4.first else {
            throw .truncated(field: "HCI packet indicator", offset: 0, needed: 1, available: 0)
        }
        let type = HCIPacketType(rawValue: indicator)
        guard (HCIPacketType.command.rawValue...HCIPacketType.iso.rawValue).contains(indicator) else {
            throw Self.unknownIndicator(type)
        }
        do {
            try self.init(type: type, payload: h4.dropFirst())
        } catch {
            throw error.shifted(by: 1)
        }
    }

    /// Decodes an H4 frame: the packet indicator, then exactly one packet.
    ///
    /// - Throws: as the slice overload does.
    public init(h4: [UInt8]) throws(BLEDecodingError) { try self.init(h4: h4[...]) }

    /// Decodes a packet whose type is known out of band (as in a btsnoop record of datalink
    /// 1001 or a Linux monitor socket), `payload` holding the packet without an indicator.
    ///
    /// - Throws: ``BLEDecodingError/invalidValue(field:offset:reason:)`` for "HCI packet indicator"
    ///   at offset 0 when `type` is not a packet type; otherwise the packet's own errors, with
    ///   offsets counted from the first octet of `payload`.
    public init(type: HCIPacketType, payload: ArraySlice<UInt8>) throws(BLEDecodingError) {
        switch type {
        case .command: self = .command(try HCICommandPacket(decoding: payload))
        case .acl: self = .acl(try HCIACLDataPacket(decoding: payload))
        case .sco: self = .sco(try HCISynchronousDataPacket(decoding: payload))
        case .event: self = .event(try HCIEventPacket(decoding: payload))
        case .iso: self = .iso(try HCIISODataPacket(decoding: payload))
        default:
            throw Self.unknownIndicator(type)
        }
    }

    static func unknownIndicator(_ type: HCIPacketType) -> BLEDecodingError {
        .invalidValue(field: "HCI packet indicator", offset: 0,
                      reason: "unknown packet indicator 0x\(Hex.encode([type.rawValue]))")
    }

    /// Decodes a packet whose type is known out of band.
    ///
    /// - Throws: as the slice overload does.
    public init(type: HCIPacketType, payload: [UInt8]) throws(BLEDecodingError) {
        try self.init(type: type, payload: payload[...])
    }

    /// The packet type, which is its H4 indicator.
    public var type: HCIPacketType {
        switch self {
        case .command: return .command
        case .acl: return .acl
        case .sco: return .sco
        case .event: return .event
        case .iso: return .iso
        }
    }

    /// The packet without its indicator.
    public var payload: [UInt8] {
        switch self {
        case .command(let p): return p.encoded
        case .acl(let p): return p.encoded
        case .sco(let p): return p.encoded
        case .event(let p): return p.encoded
        case .iso(let p): return p.encoded
        }
    }

    /// The packet as an H4 frame: its indicator, then the packet.
    public var h4Encoded: [UInt8] { [type.rawValue] + payload }
}
