import BLECore

/// The Supported_Commands bit mask of HCI_Read_Local_Supported_Commands: 64 octets, one bit per
/// command (Core v5.4, Vol 4, Part E, 6.27, "Supported Commands", and 7.4.2).
///
/// ```swift
/// commands.supports(octet: 37, bit: 5)          // LE Set Extended Scan Parameters
/// commands.supports(.leSetExtendedScanParameters)  // the same, from the opcode
/// ```
public struct HCISupportedCommands: HCIParameterLayout, CustomStringConvertible {
    /// The number of octets in the mask.
    public static let octetCount = 64

    /// The 64 octets, octet 0 first.
    public var octets: [UInt8]

    /// A mask with no command supported.
    public init() { octets = Array(repeating: 0, count: Self.octetCount) }

    /// A mask from its octets; fewer than 64 are completed with zeros, more are kept as given.
    public init(octets: [UInt8]) {
        self.octets = octets
        if octets.count < Self.octetCount { self.octets += Array(repeating: 0, count: Self.octetCount - octets.count) }
    }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&octets, count: Self.octetCount, "Supported_Commands")
    }

    /// Whether bit `bit` (0...7) of octet `octet` (0...63) is set; false outside the mask.
    public func supports(octet: Int, bit: Int) -> Bool {
        guard octets.indices.contains(octet), (0...7).contains(bit) else { return false }
        return octets[octet] & (1 << UInt8(bit)) != 0
    }

    /// Whether the command with `opcode` is supported; nil when this stack does not know the
    /// command's position in the mask (see ``position(of:)``).
    public func supports(_ opcode: HCIOpcode) -> Bool? {
        guard let (octet, bit) = Self.position(of: opcode) else { return nil }
        return supports(octet: octet, bit: bit)
    }

    /// The octet and bit of `opcode` in the mask (Vol 4, Part E, 6.27), for the commands this
    /// package implements and a few more; nil for the others.
    public static func position(of opcode: HCIOpcode) -> (octet: Int, bit: Int)? {
        let index: Int
        switch opcode {
        case .disconnect: index = 5
        case .readRemoteVersionInformation: index = 23
        case .setEventMask: index = 46
        case .reset: index = 47
        case .setControllerToHostFlowControl: index = 85
        case .hostBufferSize: index = 86
        case .hostNumberOfCompletedPackets: index = 87
        case .readLocalVersionInformation: index = 115
        case .readLocalSupportedCommands: index = 116
        case .readLocalSupportedFeatures: index = 117
        case .readBufferSize: index = 119
        case .readBDADDR: index = 121
        case .readRSSI: index = 125
        case .leSetEventMask: index = 200
        case .leReadBufferSize: index = 201
        case .leReadLocalSupportedFeatures: index = 202
        case .leSetRandomAddress: index = 204
        case .leSetAdvertisingParameters: index = 205
        case .leSetAdvertisingData: index = 207
        case .leSetScanResponseData: index = 208
        case .leSetAdvertisingEnable: index = 209
        case .leSetScanParameters: index = 210
        case .leSetScanEnable: index = 211
        case .leCreateConnection: index = 212
        case .leCreateConnectionCancel: index = 213
        case .leReadFilterAcceptListSize: index = 214
        case .leClearFilterAcceptList: index = 215
        case .leAddDeviceToFilterAcceptList: index = 216
        case .leRemoveDeviceFromFilterAcceptList: index = 217
        case .leConnectionUpdate: index = 218
        case .leReadRemoteFeatures: index = 221
        case .leEnableEncryption: index = 224
        case .leLongTermKeyRequestReply: index = 225
        case .leLongTermKeyRequestNegativeReply: index = 226
        case .leSetDataLength: index = 270
        case .leReadSuggestedDefaultDataLength: index = 271
        case .leWriteSuggestedDefaultDataLength: index = 272
        case .leReadMaximumDataLength: index = 283
        case .leReadPHY: index = 284
        case .leSetDefaultPHY: index = 285
        case .leSetPHY: index = 286
        case .leSetAdvertisingSetRandomAddress: index = 289
        case .leSetExtendedAdvertisingParameters: index = 290
        case .leSetExtendedAdvertisingData: index = 291
        case .leSetExtendedScanResponseData: index = 292
        case .leSetExtendedAdvertisingEnable: index = 293
        case .leReadMaximumAdvertisingDataLength: index = 294
        case .leReadNumberOfSupportedAdvertisingSets: index = 295
        case .leRemoveAdvertisingSet: index = 296
        case .leClearAdvertisingSets: index = 297
        case .leSetExtendedScanParameters: index = 301
        case .leSetExtendedScanEnable: index = 302
        case .leExtendedCreateConnection: index = 303
        case .leReadBufferSizeV2: index = 333
        default: return nil
        }
        return (index / 8, index % 8)
    }

    /// The number of commands supported, then the mask in hexadecimal.
    public var fieldsDescription: String {
        let count = octets.reduce(0) { $0 + $1.nonzeroBitCount }
        return "supported_commands=\(count) commands (\(Hex.encode(octets)))"
    }

    /// The value on one line, for logs and capture decoders.
    public var description: String { fieldsDescription }
}
