import BLECore

/// The PDU Type of an advertising physical channel PDU header, 4 bits
/// (Core v5.4, Vol 6, Part B, 2.3, Table 2.3). Reserved values are kept raw.
///
/// Some values name several PDUs told apart by the channel they are sent on: 0b0011 is
/// SCAN_REQ on the primary channel and AUX_SCAN_REQ on a secondary one, 0b0101 CONNECT_IND
/// and AUX_CONNECT_REQ, 0b0111 ADV_EXT_IND and the AUX_ADV_IND, AUX_SCAN_RSP, AUX_SYNC_IND,
/// AUX_CHAIN_IND, AUX_SYNC_SUBEVENT_IND and AUX_SYNC_SUBEVENT_RSP PDUs.
public struct AdvertisingPDUType: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    /// A PDU type; only the low 4 bits are kept.
    public init(rawValue: UInt8) { self.rawValue = rawValue & 0x0F }

    /// 0b0000: ADV_IND, connectable and scannable undirected advertising.
    public static let advInd = AdvertisingPDUType(rawValue: 0b0000)
    /// 0b0001: ADV_DIRECT_IND, connectable directed advertising.
    public static let advDirectInd = AdvertisingPDUType(rawValue: 0b0001)
    /// 0b0010: ADV_NONCONN_IND, non-connectable non-scannable undirected advertising.
    public static let advNonconnInd = AdvertisingPDUType(rawValue: 0b0010)
    /// 0b0011: SCAN_REQ (primary channel) or AUX_SCAN_REQ (secondary channel).
    public static let scanReq = AdvertisingPDUType(rawValue: 0b0011)
    /// 0b0100: SCAN_RSP.
    public static let scanRsp = AdvertisingPDUType(rawValue: 0b0100)
    /// 0b0101: CONNECT_IND (primary channel) or AUX_CONNECT_REQ (secondary channel).
    public static let connectInd = AdvertisingPDUType(rawValue: 0b0101)
    /// 0b0110: ADV_SCAN_IND, scannable undirected advertising.
    public static let advScanInd = AdvertisingPDUType(rawValue: 0b0110)
    /// 0b0111: ADV_EXT_IND (primary channel) or an AUX_* PDU in the common extended format.
    public static let advExtInd = AdvertisingPDUType(rawValue: 0b0111)
    /// 0b1000: AUX_CONNECT_RSP.
    public static let auxConnectRsp = AdvertisingPDUType(rawValue: 0b1000)

    /// Whether the payload uses the common extended advertising payload format (2.3.4).
    public var isExtended: Bool { self == .advExtInd || self == .auxConnectRsp }

    public var description: String {
        switch rawValue {
        case 0b0000: return "ADV_IND"
        case 0b0001: return "ADV_DIRECT_IND"
        case 0b0010: return "ADV_NONCONN_IND"
        case 0b0011: return "SCAN_REQ"
        case 0b0100: return "SCAN_RSP"
        case 0b0101: return "CONNECT_IND"
        case 0b0110: return "ADV_SCAN_IND"
        case 0b0111: return "ADV_EXT_IND"
        case 0b1000: return "AUX_CONNECT_RSP"
        default: return "reserved PDU type \(rawValue)"
        }
    }
}
