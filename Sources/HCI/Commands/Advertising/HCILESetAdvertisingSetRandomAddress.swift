import BLECore

/// HCI_LE_Set_Advertising_Set_Random_Address, opcode 0x2035 (Core v5.4, Vol 4, Part E, 7.8.52):
/// the random device address an extended advertising set advertises with when its
/// Own_Address_Type is random (0x01 or 0x03).
///
/// Layout: Advertising_Handle (1), Random_Address (6). Command Complete returns Status alone.
public struct HCILESetAdvertisingSetRandomAddress: HCICommand {
    /// Status alone.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x2035.
    public static var opcode: HCIOpcode { .leSetAdvertisingSetRandomAddress }

    /// Advertising_Handle: the advertising set, 0x00...0xEF.
    public var advertisingHandle: UInt8
    /// Random_Address: the set's random device address.
    public var randomAddress: BluetoothAddress

    /// The command for set `advertisingHandle`.
    public init(advertisingHandle: UInt8, randomAddress: BluetoothAddress) {
        self.advertisingHandle = advertisingHandle
        self.randomAddress = randomAddress
    }

    /// Every field zero: the value decoding starts from.
    public init() { self.init(advertisingHandle: 0, randomAddress: .zero) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&advertisingHandle, "Advertising_Handle", format: .hex)
        try coder.code(&randomAddress, "Random_Address")
    }
}
