import BLECore

/// A data physical channel PDU on an ACL connection (Core v5.4, Vol 6, Part B, 2.4).
///
/// Header, 2 octets: LLID (bits 0...1), NESN (bit 2), SN (bit 3), MD (bit 4), CP (bit 5),
/// RFU (bits 6...7), then Length (8 bits: the payload's octets, including the MIC of an
/// encrypted PDU). When CP is 1 a CTEInfo octet follows the header, outside Length. Then the
/// payload: an L2CAP fragment, an empty PDU, or an LL Control PDU (Opcode, CtrData).
///
/// A capture cannot tell an encrypted payload from a clear one: after LL_START_ENC_RSP the
/// payload (and an LL Control PDU's "opcode") is ciphertext plus a 4-octet MIC. Tracking
/// encryption is for a stateful dissector; this value only reports the octets.
public struct DataChannelPDU: Hashable, Sendable, CustomStringConvertible {
    /// The LLID field (2 bits, 2.4). Every value has a meaning or is reserved; kept raw.
    public struct LLID: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        public let rawValue: UInt8
        /// An LLID; only the low 2 bits are kept.
        public init(rawValue: UInt8) { self.rawValue = rawValue & 0b11 }

        /// 0b00: reserved for future use.
        public static let reserved = LLID(rawValue: 0b00)
        /// 0b01: LL Data PDU, a continuation fragment of an L2CAP message, or an empty PDU.
        public static let continuation = LLID(rawValue: 0b01)
        /// 0b10: LL Data PDU, the start of an L2CAP message or a complete one.
        public static let start = LLID(rawValue: 0b10)
        /// 0b11: LL Control PDU.
        public static let control = LLID(rawValue: 0b11)

        public var description: String {
            switch rawValue {
            case 0b01: return "LL Data (continuation or empty)"
            case 0b10: return "LL Data (start)"
            case 0b11: return "LL Control"
            default: return "reserved LLID"
            }
        }
    }

    /// What the payload is, from LLID and Length.
    public enum Content: Hashable, Sendable {
        /// LLID 0b01 with Length 0: an empty PDU (acknowledgement or keep-alive).
        case empty
        /// LLID 0b10: the first fragment of an L2CAP PDU (or a whole one), starting with its
        /// basic header (Length, Channel ID).
        case l2capStart([UInt8])
        /// LLID 0b01 with a payload: a continuation fragment of an L2CAP PDU.
        case l2capContinuation([UInt8])
        /// LLID 0b11: an LL Control PDU, its Opcode and CtrData.
        case control(opcode: LLControlOpcode, ctrData: [UInt8])
        /// LLID 0b00: the payload of a reserved LLID.
        case reserved([UInt8])
    }

    /// LLID (header bits 0...1).
    public var llid: LLID
    /// NESN, the next expected sequence number (0 or 1).
    public var nesn: UInt8
    /// SN, the sequence number (0 or 1).
    public var sn: UInt8
    /// MD: the sender has more data.
    public var md: Bool
    /// Header bits 6...7, reserved for future use, kept as received.
    public var rfu: UInt8
    /// CTEInfo, present when the header's CP bit is 1 (the bit is derived from this field).
    public var cteInfo: UInt8?
    /// The payload, Length octets (with the MIC when encrypted).
    public var payload: [UInt8]

    /// A PDU. `nesn` and `sn` are masked to 1 bit, `rfu` to 2.
    public init(llid: LLID, nesn: UInt8 = 0, sn: UInt8 = 0, md: Bool = false, rfu: UInt8 = 0,
                cteInfo: UInt8? = nil, payload: [UInt8]) {
        self.llid = llid
        self.nesn = nesn & 1
        self.sn = sn & 1
        self.md = md
        self.rfu = rfu & 0b11
        self.cteInfo = cteInfo
        self.payload = payload
    }

    /// Reads the header, CTEInfo when CP is set, and exactly Length octets of payload.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` when the header,
    ///   CTEInfo or payload is short; ``BLEDecodingError/invalidValue(field:offset:reason:)``
    ///   for an LL Control PDU with Length 0 (it must hold an Opcode).
    public init(from r: inout ByteReader) throws(BLEDecodingError) {
        let bits = try r.readUInt8("LLID, NESN, SN, MD, CP")
        let lengthOffset = r.offset
        let length = Int(try r.readUInt8("Length"))
        llid = LLID(rawValue: bits)
        nesn = bits >> 2 & 1
        sn = bits >> 3 & 1
        md = bits & 0x10 != 0
        rfu = bits >> 6
        cteInfo = bits & 0x20 != 0 ? try r.readUInt8("CTEInfo") : nil
        if llid == .control && length == 0 {
            throw .invalidValue(field: "Length", offset: lengthOffset, reason: "an LL Control PDU needs an Opcode, Length is 0")
        }
        payload = try r.readBytes(length, "Payload")
    }

    /// Appends the header, CTEInfo and payload. The payload must not exceed 255 octets.
    public func write(to w: inout ByteWriter) {
        var bits = llid.rawValue | (nesn & 1) << 2 | (sn & 1) << 3 | (rfu & 0b11) << 6
        if md { bits |= 0x10 }
        if cteInfo != nil { bits |= 0x20 }
        w.writeUInt8(bits)
        w.writeUInt8(UInt8(truncatingIfNeeded: payload.count))
        if let cteInfo { w.writeUInt8(cteInfo) }
        w.writeBytes(payload)
    }

    /// CP: whether a CTEInfo field follows the header.
    public var cp: Bool { cteInfo != nil }

    /// The payload's meaning according to LLID.
    public var content: Content {
        switch llid {
        case .continuation: return payload.isEmpty ? .empty : .l2capContinuation(payload)
        case .start: return .l2capStart(payload)
        case .control:
            guard let opcode = payload.first else { return .reserved(payload) }
            return .control(opcode: LLControlOpcode(rawValue: opcode), ctrData: Array(payload.dropFirst()))
        default: return .reserved(payload)
        }
    }

    /// The LL Control PDU's opcode, nil for other PDUs.
    public var controlOpcode: LLControlOpcode? {
        llid == .control ? payload.first.map { LLControlOpcode(rawValue: $0) } : nil
    }

    /// One line: "LL_ENC_REQ, NESN 0 SN 1" or "L2CAP start, 11 octets, NESN 1 SN 0 MD".
    public var description: String {
        var flags = "NESN \(nesn) SN \(sn)"
        if md { flags += " MD" }
        if let cteInfo { flags += " CTEInfo 0x\(Hex.encode([cteInfo]))" }
        switch content {
        case .empty: return "Empty PDU, \(flags)"
        case let .l2capStart(octets): return "L2CAP start, \(octets.count) octets, \(flags)"
        case let .l2capContinuation(octets): return "L2CAP continuation, \(octets.count) octets, \(flags)"
        case let .control(opcode, ctrData): return "\(opcode), CtrData \(ctrData.count) octets, \(flags)"
        case let .reserved(octets): return "\(llid), \(octets.count) octets, \(flags)"
        }
    }
}
