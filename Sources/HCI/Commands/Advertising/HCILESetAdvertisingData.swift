import BLECore

/// HCI_LE_Set_Advertising_Data, opcode 0x2008 (Core v5.4, Vol 4, Part E, 7.8.7): the data of
/// legacy advertising PDUs. Returns Status.
///
/// Parameters: Advertising_Data_Length (1, 0...31), Advertising_Data (31 octets, of which the
/// first Advertising_Data_Length are significant). The command always carries 32 octets.
public struct HCILESetAdvertisingData: HCICommand {
    /// Command Complete returns only Status.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x2008.
    public static var opcode: HCIOpcode { .leSetAdvertisingData }

    /// The significant part of Advertising_Data: AD structures, 0...31 octets.
    public var advertisingData: [UInt8]
    /// The non-significant octets that complete the 31-octet field, kept only when they are not
    /// all zero (so that re-encoding gives back the octets received); empty means zeros.
    public var padding: [UInt8]

    /// The command with these parameters.
    public init(advertisingData: [UInt8], padding: [UInt8] = []) {
        self.advertisingData = advertisingData
        self.padding = padding
    }

    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(advertisingData: []) }

    /// - Throws (decoding): ``BLEDecodingError/invalidValue(field:offset:reason:)`` for
    ///   "Advertising_Data_Length" above 31.
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(legacyAdvertisingData: &advertisingData, padding: &padding,
                       lengthField: "Advertising_Data_Length", "Advertising_Data")
    }

    /// The length and the significant octets (and the padding when it is not zero).
    public var fieldsDescription: String {
        var text = "advertising_data_length=\(advertisingData.count) advertising_data=\(advertisingData.isEmpty ? "(none)" : Hex.encode(advertisingData))"
        if !padding.isEmpty { text += " padding=\(Hex.encode(padding))" }
        return text
    }
}
