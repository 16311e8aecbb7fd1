/// HCI_LE_Set_Extended_Scan_Response_Data, opcode 0x2038 (Core v5.4, Vol 4, Part E, 7.8.55):
/// all or part of an advertising set's scan response data. Returns Status.
///
/// Parameters: Advertising_Handle (1), Operation (1), Fragment_Preference (1),
/// Scan_Response_Data_Length (1, 0...251), Scan_Response_Data (Scan_Response_Data_Length octets).
public struct HCILESetExtendedScanResponseData: HCICommand {
    /// Command Complete returns only Status.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x2038.
    public static var opcode: HCIOpcode { .leSetExtendedScanResponseData }

    /// Advertising_Handle: the advertising set.
    public var advertisingHandle: UInt8
    /// Operation: which part of the data this is (``LEAdvertisingDataOperation/unchangedData``
    /// is not allowed here).
    public var operation: LEAdvertisingDataOperation
    /// Fragment_Preference.
    public var fragmentPreference: LEFragmentPreference
    /// Scan_Response_Data: AD structures, or a fragment of them, 0...251 octets.
    public var scanResponseData: [UInt8]

    /// The command with these parameters.
    public init(advertisingHandle: UInt8, operation: LEAdvertisingDataOperation = .complete,
                fragmentPreference: LEFragmentPreference = .shouldNotFragment, scanResponseData: [UInt8]) {
        self.advertisingHandle = advertisingHandle
        self.operation = operation
        self.fragmentPreference = fragmentPreference
        self.scanResponseData = scanResponseData
    }

    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(advertisingHandle: 0, operation: .intermediateFragment, fragmentPreference: .mayFragment, scanResponseData: []) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&advertisingHandle, "Advertising_Handle", format: .hex)
        try coder.code(&operation, "Operation")
        try coder.code(&fragmentPreference, "Fragment_Preference")
        try coder.code(lengthPrefixed: &scanResponseData, lengthField: "Scan_Response_Data_Length", "Scan_Response_Data")
    }
}
