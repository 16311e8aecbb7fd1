import BLECore

/// HCI_LE_Set_Random_Address, opcode 0x2005 (Core v5.4, Vol 4, Part E, 7.8.4): sets the random
/// device address used when Own_Address_Type is random (legacy advertising, scanning,
/// initiating). Returns Status.
///
/// Parameters: Random_Address (6).
public struct HCILESetRandomAddress: HCICommand {
    public typealias ReturnParameters = HCIStatusReturnParameters
    public static var opcode: HCIOpcode { .leSetRandomAddress }

    /// Random_Address: a static, resolvable private or non-resolvable private address.
    public var randomAddress: BluetoothAddress

    public init(randomAddress: BluetoothAddress) { self.randomAddress = randomAddress }
    public init() { self.init(randomAddress: .zero) }

    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&randomAddress, "Random_Address")
    }
}
