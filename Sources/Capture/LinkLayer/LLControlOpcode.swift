import BLECore

/// The Opcode of an LL Control PDU (Core v5.4, Vol 6, Part B, 2.4.2, Table 2.28).
/// Unknown values (reserved, later versions, or the ciphertext of an encrypted PDU read
/// without its key) are kept raw.
public struct LLControlOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x00: LL_CONNECTION_UPDATE_IND.
    public static let connectionUpdateInd = LLControlOpcode(rawValue: 0x00)
    /// 0x01: LL_CHANNEL_MAP_IND.
    public static let channelMapInd = LLControlOpcode(rawValue: 0x01)
    /// 0x02: LL_TERMINATE_IND.
    public static let terminateInd = LLControlOpcode(rawValue: 0x02)
    /// 0x03: LL_ENC_REQ.
    public static let encReq = LLControlOpcode(rawValue: 0x03)
    /// 0x04: LL_ENC_RSP.
    public static let encRsp = LLControlOpcode(rawValue: 0x04)
    /// 0x05: LL_START_ENC_REQ.
    public static let startEncReq = LLControlOpcode(rawValue: 0x05)
    /// 0x06: LL_START_ENC_RSP.
    public static let startEncRsp = LLControlOpcode(rawValue: 0x06)
    /// 0x07: LL_UNKNOWN_RSP.
    public static let unknownRsp = LLControlOpcode(rawValue: 0x07)
    /// 0x08: LL_FEATURE_REQ.
    public static let featureReq = LLControlOpcode(rawValue: 0x08)
    /// 0x09: LL_FEATURE_RSP.
    public static let featureRsp = LLControlOpcode(rawValue: 0x09)
    /// 0x0A: LL_PAUSE_ENC_REQ.
    public static let pauseEncReq = LLControlOpcode(rawValue: 0x0A)
    /// 0x0B: LL_PAUSE_ENC_RSP.
    public static let pauseEncRsp = LLControlOpcode(rawValue: 0x0B)
    /// 0x0C: LL_VERSION_IND.
    public static let versionInd = LLControlOpcode(rawValue: 0x0C)
    /// 0x0D: LL_REJECT_IND.
    public static let rejectInd = LLControlOpcode(rawValue: 0x0D)
    /// 0x0E: LL_PERIPHERAL_FEATURE_REQ.
    public static let peripheralFeatureReq = LLControlOpcode(rawValue: 0x0E)
    /// 0x0F: LL_CONNECTION_PARAM_REQ.
    public static let connectionParamReq = LLControlOpcode(rawValue: 0x0F)
    /// 0x10: LL_CONNECTION_PARAM_RSP.
    public static let connectionParamRsp = LLControlOpcode(rawValue: 0x10)
    /// 0x11: LL_REJECT_EXT_IND.
    public static let rejectExtInd = LLControlOpcode(rawValue: 0x11)
    /// 0x12: LL_PING_REQ.
    public static let pingReq = LLControlOpcode(rawValue: 0x12)
    /// 0x13: LL_PING_RSP.
    public static let pingRsp = LLControlOpcode(rawValue: 0x13)
    /// 0x14: LL_LENGTH_REQ.
    public static let lengthReq = LLControlOpcode(rawValue: 0x14)
    /// 0x15: LL_LENGTH_RSP.
    public static let lengthRsp = LLControlOpcode(rawValue: 0x15)
    /// 0x16: LL_PHY_REQ.
    public static let phyReq = LLControlOpcode(rawValue: 0x16)
    /// 0x17: LL_PHY_RSP.
    public static let phyRsp = LLControlOpcode(rawValue: 0x17)
    /// 0x18: LL_PHY_UPDATE_IND.
    public static let phyUpdateInd = LLControlOpcode(rawValue: 0x18)
    /// 0x19: LL_MIN_USED_CHANNELS_IND.
    public static let minUsedChannelsInd = LLControlOpcode(rawValue: 0x19)
    /// 0x1A: LL_CTE_REQ.
    public static let cteReq = LLControlOpcode(rawValue: 0x1A)
    /// 0x1B: LL_CTE_RSP.
    public static let cteRsp = LLControlOpcode(rawValue: 0x1B)
    /// 0x1C: LL_PERIODIC_SYNC_IND.
    public static let periodicSyncInd = LLControlOpcode(rawValue: 0x1C)
    /// 0x1D: LL_CLOCK_ACCURACY_REQ.
    public static let clockAccuracyReq = LLControlOpcode(rawValue: 0x1D)
    /// 0x1E: LL_CLOCK_ACCURACY_RSP.
    public static let clockAccuracyRsp = LLControlOpcode(rawValue: 0x1E)
    /// 0x1F: LL_CIS_REQ.
    public static let cisReq = LLControlOpcode(rawValue: 0x1F)
    /// 0x20: LL_CIS_RSP.
    public static let cisRsp = LLControlOpcode(rawValue: 0x20)
    /// 0x21: LL_CIS_IND.
    public static let cisInd = LLControlOpcode(rawValue: 0x21)
    /// 0x22: LL_CIS_TERMINATE_IND.
    public static let cisTerminateInd = LLControlOpcode(rawValue: 0x22)
    /// 0x23: LL_POWER_CONTROL_REQ.
    public static let powerControlReq = LLControlOpcode(rawValue: 0x23)
    /// 0x24: LL_POWER_CONTROL_RSP.
    public static let powerControlRsp = LLControlOpcode(rawValue: 0x24)
    /// 0x25: LL_POWER_CHANGE_IND.
    public static let powerChangeInd = LLControlOpcode(rawValue: 0x25)
    /// 0x26: LL_SUBRATE_REQ.
    public static let subrateReq = LLControlOpcode(rawValue: 0x26)
    /// 0x27: LL_SUBRATE_IND.
    public static let subrateInd = LLControlOpcode(rawValue: 0x27)
    /// 0x28: LL_CHANNEL_REPORTING_IND.
    public static let channelReportingInd = LLControlOpcode(rawValue: 0x28)
    /// 0x29: LL_CHANNEL_STATUS_IND.
    public static let channelStatusInd = LLControlOpcode(rawValue: 0x29)
    /// 0x2A: LL_PERIODIC_SYNC_WR_IND.
    public static let periodicSyncWRInd = LLControlOpcode(rawValue: 0x2A)

    /// The names of opcodes 0x00...0x2A, in the specification's spelling.
    static let names: [String] = [
        "LL_CONNECTION_UPDATE_IND", "LL_CHANNEL_MAP_IND", "LL_TERMINATE_IND", "LL_ENC_REQ", "LL_ENC_RSP",
        "LL_START_ENC_REQ", "LL_START_ENC_RSP", "LL_UNKNOWN_RSP", "LL_FEATURE_REQ", "LL_FEATURE_RSP",
        "LL_PAUSE_ENC_REQ", "LL_PAUSE_ENC_RSP", "LL_VERSION_IND", "LL_REJECT_IND", "LL_PERIPHERAL_FEATURE_REQ",
        "LL_CONNECTION_PARAM_REQ", "LL_CONNECTION_PARAM_RSP", "LL_REJECT_EXT_IND", "LL_PING_REQ", "LL_PING_RSP",
        "LL_LENGTH_REQ", "LL_LENGTH_RSP", "LL_PHY_REQ", "LL_PHY_RSP", "LL_PHY_UPDATE_IND",
        "LL_MIN_USED_CHANNELS_IND", "LL_CTE_REQ", "LL_CTE_RSP", "LL_PERIODIC_SYNC_IND", "LL_CLOCK_ACCURACY_REQ",
        "LL_CLOCK_ACCURACY_RSP", "LL_CIS_REQ", "LL_CIS_RSP", "LL_CIS_IND", "LL_CIS_TERMINATE_IND",
        "LL_POWER_CONTROL_REQ", "LL_POWER_CONTROL_RSP", "LL_POWER_CHANGE_IND", "LL_SUBRATE_REQ", "LL_SUBRATE_IND",
        "LL_CHANNEL_REPORTING_IND", "LL_CHANNEL_STATUS_IND", "LL_PERIODIC_SYNC_WR_IND",
    ]

    /// The specification's name, for example "LL_ENC_REQ"; nil for an opcode v5.4 does not define.
    public var name: String? {
        Int(rawValue) < Self.names.count ? Self.names[Int(rawValue)] : nil
    }

    public var description: String { name ?? "LL control opcode 0x\(Hex.encode([rawValue]))" }
}
