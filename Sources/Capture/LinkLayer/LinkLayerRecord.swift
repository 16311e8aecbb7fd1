import BLECore

/// An LE link-layer packet as a sniffer captured it: optional capture headers, the access
/// address, the PDU and the CRC (Core v5.4, Vol 6, Part B, 2.1: preamble, access address,
/// PDU, CRC; captures leave out the preamble).
///
/// Layout of the record's octets, by link type:
/// - LINKTYPE 251 (and 147 inside PPI): Access Address (4, little-endian), PDU (2-octet
///   header + Length octets), CRC (3).
/// - LINKTYPE 256: the 10-octet ``LELLPseudoHeader``, then as 251.
/// - LINKTYPE 192: a ``PPIHeader`` whose pph_dlt is 251, 147 or 256, then that packet.
/// - LINKTYPE 272: the nRF Sniffer's ``NordicBLEHeader``, then as 251, with a Coding
///   Indicator octet after the access address when the header's PHY is LE Coded (Core v5.4,
///   Vol 6, Part B, 2.2).
///
/// Which PDU kind follows is decided by the pseudo-header's PDU type when it names one
/// (auxiliary advertising, data, isochronous), or by a version 3 nRF Sniffer header's Packet
/// ID; otherwise by the access address: the
/// advertising access address 0x8E89BED6 means an advertising physical channel PDU, any
/// other a data physical channel PDU. Without a pseudo-header, periodic advertising and
/// isochronous PDUs (which use other access addresses) therefore decode as data PDUs.
public struct LinkLayerRecord: Hashable, Sendable, CustomStringConvertible {
    /// The access address of every advertising physical channel PDU (Core v5.4, Vol 6, Part B, 2.1.2).
    public static let advertisingAccessAddress: UInt32 = 0x8E89_BED6

    /// The LINKTYPE 256 pseudo-header, when the record had one.
    public var pseudoHeader: LELLPseudoHeader?
    /// The PPI header, when the record came wrapped in LINKTYPE 192.
    public var ppi: PPIHeader?
    /// The nRF Sniffer header, when the record came from LINKTYPE 272.
    public var nordic: NordicBLEHeader?
    /// The Coding Indicator octet of a packet on the LE Coded PHY (bits 0...1: 0 S=8, 1 S=2),
    /// when the capture keeps it (Core v5.4, Vol 6, Part B, 2.2).
    public var codingIndicator: UInt8?
    /// The access address (4 octets, little-endian on air).
    public var accessAddress: UInt32
    /// The PDU: header and payload.
    public var pdu: LinkLayerPDU
    /// The CRC as a 24-bit register value, the form Wireshark prints (see ``LinkLayerCRC``).
    public var crc: UInt32

    /// A packet with the given CRC register value (masked to 24 bits).
    public init(pseudoHeader: LELLPseudoHeader? = nil, ppi: PPIHeader? = nil, nordic: NordicBLEHeader? = nil,
                accessAddress: UInt32, codingIndicator: UInt8? = nil, pdu: LinkLayerPDU, crc: UInt32) {
        self.pseudoHeader = pseudoHeader
        self.ppi = ppi
        self.nordic = nordic
        self.codingIndicator = codingIndicator
        self.accessAddress = accessAddress
        self.pdu = pdu
        self.crc = crc & 0xFF_FFFF
    }

    /// A packet whose CRC is computed for the PDU: with 0x555555 for advertising PDUs, with
    /// `crcInit` (the connection's CRCInit) for the others.
    public init(pseudoHeader: LELLPseudoHeader? = nil, ppi: PPIHeader? = nil, nordic: NordicBLEHeader? = nil,
                accessAddress: UInt32, codingIndicator: UInt8? = nil, pdu: LinkLayerPDU,
                crcInit: UInt32 = LinkLayerCRC.advertisingCRCInit) {
        self.init(pseudoHeader: pseudoHeader, ppi: ppi, nordic: nordic, accessAddress: accessAddress,
                  codingIndicator: codingIndicator, pdu: pdu, crc: LinkLayerCRC.compute(pdu.encoded, crcInit: crcInit))
    }

    /// Decodes a record's octets under `linkType`.
    ///
    /// - Parameter linkType: ``LinkType/bluetoothLELL``, ``LinkType/bluetoothLELLWithPHDR``,
    ///   ``LinkType/ppi``, ``LinkType/nordicBLE`` or ``LinkType/user0`` (treated as 251).
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` naming the
    ///   short field (for example "CRC" when Length runs into it);
    ///   ``BLEDecodingError/invalidValue(field:offset:reason:)`` for a Length that does not
    ///   fit the PDU type, a link type (or PPI pph_dlt) that is not an LE link layer, or an
    ///   nRF Sniffer header that does not fit the record or is of a version it does not know
    ///   (see ``NordicBLEHeader/init(from:)``);
    ///   ``BLEDecodingError/unexpectedTrailingOctets(offset:count:)`` for octets after the CRC.
    ///   Offsets count from the first octet of `octets`.
    public init(decoding octets: ArraySlice<UInt8>, linkType: LinkType) throws(BLEDecodingError) {
        var r = ByteReader(octets)
        var inner = linkType
        if linkType == .ppi {
            let header = try PPIHeader(from: &r)
            ppi = header
            inner = header.dlt
            guard inner == .bluetoothLELL || inner == .user0 || inner == .bluetoothLELLWithPHDR else {
                throw .invalidValue(field: "pph_dlt", offset: 4, reason: "\(inner) is not an LE link-layer link type")
            }
        } else {
            ppi = nil
        }
        pseudoHeader = nil
        nordic = nil
        switch inner {
        case .bluetoothLELLWithPHDR:
            pseudoHeader = try LELLPseudoHeader(from: &r)
        case .nordicBLE:
            nordic = try NordicBLEHeader(from: &r)
        case .bluetoothLELL, .user0:
            break
        default:
            throw .invalidValue(field: "link type", offset: 0, reason: "\(inner) is not an LE link-layer link type")
        }
        accessAddress = try r.readUInt32("Access Address")
        codingIndicator = nordic?.flags.phy == 2 ? try r.readUInt8("Coding Indicator") : nil
        switch pseudoHeader?.flags.pduType {
        case .auxiliaryAdvertising?:
            pdu = .advertising(try AdvertisingChannelPDU(from: &r))
        case .dataCentralToPeripheral?, .dataPeripheralToCentral?:
            pdu = .data(try DataChannelPDU(from: &r))
        case .cisCentralToPeripheral?, .cisPeripheralToCentral?, .broadcastIsochronous?:
            let bits = try r.readUInt8("Header")
            let length = try r.readUInt8("Length")
            pdu = .isochronous(headerBits: bits, payload: try r.readBytes(Int(length), "Payload"))
        default:
            if nordic?.isDataPDU ?? (accessAddress != Self.advertisingAccessAddress) {
                pdu = .data(try DataChannelPDU(from: &r))
            } else {
                pdu = .advertising(try AdvertisingChannelPDU(from: &r))
            }
        }
        let c = try r.readSlice(3, "CRC")
        crc = LinkLayerCRC.registerValue(captureOctets: c[c.startIndex], c[c.startIndex + 1], c[c.startIndex + 2])
        try r.expectEnd()
    }

    /// Decodes a record's octets under `linkType`.
    public init(decoding octets: [UInt8], linkType: LinkType) throws(BLEDecodingError) {
        try self.init(decoding: octets[...], linkType: linkType)
    }

    /// Appends the record's octets: PPI header, pseudo-header or nRF Sniffer header, access
    /// address, Coding Indicator, PDU, CRC.
    public func write(to w: inout ByteWriter) {
        ppi?.write(to: &w)
        pseudoHeader?.write(to: &w)
        let encodedPDU = pdu.encoded
        nordic?.write(to: &w, packetLength: 4 + (codingIndicator == nil ? 0 : 1) + encodedPDU.count + 3)
        w.writeUInt32(accessAddress)
        if let codingIndicator { w.writeUInt8(codingIndicator) }
        w.writeBytes(encodedPDU)
        w.writeBytes(LinkLayerCRC.captureOctets(registerValue: crc))
    }

    /// The record's octets, as LINKTYPE 251, 256, 192 or 272 stores them.
    public var encoded: [UInt8] {
        var w = ByteWriter(capacity: 64)
        write(to: &w)
        return w.bytes
    }

    /// The CRC the PDU should carry for `crcInit` (``LinkLayerCRC/advertisingCRCInit`` for
    /// advertising PDUs, the CONNECT_IND's CRCInit for the connection's data PDUs).
    public func expectedCRC(crcInit: UInt32) -> UInt32 {
        LinkLayerCRC.compute(pdu.encoded, crcInit: crcInit)
    }

    /// Whether ``crc`` is the CRC of the PDU for `crcInit`.
    public func isCRCValid(crcInit: UInt32) -> Bool { expectedCRC(crcInit: crcInit) == crc }

    /// What the capture header said about the packet (``SnifferVerdict/none`` without one).
    public var sniffer: SnifferVerdict {
        if let pseudoHeader { return SnifferVerdict(pseudoHeader) }
        if let nordic {
            if case .data = pdu { return SnifferVerdict(nordic, isDataPDU: true) }
            return SnifferVerdict(nordic, isDataPDU: false)
        }
        return .none
    }

    /// One line: the PDU, with the access address for non-advertising PDUs.
    public var description: String {
        if case .advertising = pdu { return pdu.description }
        return "AA 0x\(hex32(accessAddress)) \(pdu)"
    }

    /// The four octets of `value`, most significant first.
    static func bigEndian(_ value: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 24), UInt8(truncatingIfNeeded: value >> 16),
         UInt8(truncatingIfNeeded: value >> 8), UInt8(truncatingIfNeeded: value)]
    }
}
