import BLECore

/// HCI_LE_Set_Scan_Response_Data, opcode 0x2009 (Core v5.4, Vol 4, Part E, 7.8.8): the data of
/// legacy scan responses. Returns Status.
///
/// Parameters: Scan_Response_Data_Length (1, 0...31), Scan_Response_Data (31 octets, of which
/// the first Scan_Response_Data_Length are significant). The command always carries 32 octets.
public struct HCILESetScanResponseData: HCICommand {
    /// Command Complete returns only Status.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x2009.
    public static var opcode: HCIOpcode { .leSetScanResponseData }

    /// The significant part of Scan_Response_Data: AD structures, 0...31 octets.
    public var scanResponseData: [UInt8]
    /// The non-significant octets that complete the 31-octet field, kept only when they are not
    /// all zero; empty means zeros.
    public var padding: [UInt8]

    /// The command with these parameters.
    public init(scanResponseData: [UInt8], padding: [UInt8] = []) {
        self.scanResponseData = scanResponseData
        self.padding = padding
    }

    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(scanResponseData: []) }

    /// - Throws (decoding): ``BLEDecodingError/invalidValue(field:offset:reason:)`` for
    ///   "Scan_Response_Data_Length" above 31.
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(legacyAdvertisingData: &scanResponseData, padding: &padding,
                       lengthField: "Scan_Response_Data_Length", "Scan_Response_Data")
    }

    /// The length and the significant octets (and the padding when it is not zero).
    public var fieldsDescription: String {
        var text = "scan_response_data_length=\(scanResponseData.count) scan_response_data=\(scanResponseData.isEmpty ? "(none)" : Hex.encode(scanResponseData))"
        if !padding.isEmpty { text += " padding=\(Hex.encode(padding))" }
        return text
    }
}
