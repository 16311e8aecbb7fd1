/// HCI_LE_Set_Extended_Advertising_Data, opcode 0x2037 (Core v5.4, Vol 4, Part E, 7.8.54): all
/// or part of an advertising set's advertising data. Returns Status.
///
/// Parameters: Advertising_Handle (1), Operation (1), Fragment_Preference (1),
/// Advertising_Data_Length (1, 0...251), Advertising_Data (Advertising_Data_Length octets).
public struct HCILESetExtendedAdvertisingData: HCICommand {
    /// Command Complete returns only Status.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x2037.
    public static var opcode: HCIOpcode { .leSetExtendedAdvertisingData }

    /// Advertising_Handle: the advertising set.
    public var advertisingHandle: UInt8
    /// Operation: which part of the data this is.
    public var operation: LEAdvertisingDataOperation
    /// Fragment_Preference.
    public var fragmentPreference: LEFragmentPreference
    /// Advertising_Data: AD structures, or a fragment of them, 0...251 octets.
    public var advertisingData: [UInt8]

    /// The command with these parameters.
    public init(advertisingHandle: UInt8, operation: LEAdvertisingDataOperation = .complete,
                fragmentPreference: LEFragmentPreference = .shouldNotFragment, advertisingData: [UInt8]) {
        self.advertisingHandle = advertisingHandle
        self.operation = operation
        self.fragmentPreference = fragmentPreference
        self.advertisingData = advertisingData
    }

    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(advertisingHandle: 0, operation: .intermediateFragment, fragmentPreference: .mayFragment, advertisingData: []) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&advertisingHandle, "Advertising_Handle", format: .hex)
        try coder.code(&operation, "Operation")
        try coder.code(&fragmentPreference, "Fragment_Preference")
        try coder.code(lengthPrefixed: &advertisingData, lengthField: "Advertising_Data_Length", "Advertising_Data")
    }
}
