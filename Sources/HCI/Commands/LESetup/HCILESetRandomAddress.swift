import BLECore

/// HCI_LE_Set_Random_Address, opcode 0x2005 (Core v5.4, Vol 4, Part E, 7.8.4): sets the random
/// device address used when Own_Address_Type is random (legacy advertising, scanning,
/// initiating). Returns Status.
///
/// Parameters: Random_Address (6).
public struct HCILESetRandomAddress: HCICommand {
    /// Command Complete returns only Status.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x2005.
    public static var opcode: HCIOpcode { .leSetRandomAddress }

    /// Random_Address: a static, resolvable private or non-resolvable private address.
    public var randomAddress: BluetoothAddress

    /// The command with these parameters.
    public init(randomAddress: BluetoothAddress) { self.randomAddress = randomAddress }
    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(randomAddress: .zero) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&randomAddress, "Random_Address")
    }
}
