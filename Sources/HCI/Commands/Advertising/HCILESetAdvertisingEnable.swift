/// HCI_LE_Set_Advertising_Enable, opcode 0x200A (Core v5.4, Vol 4, Part E, 7.8.9): starts or
/// stops legacy advertising. Returns Status.
///
/// Parameters: Advertising_Enable (1).
public struct HCILESetAdvertisingEnable: HCICommand {
    /// Command Complete returns only Status.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x200A.
    public static var opcode: HCIOpcode { .leSetAdvertisingEnable }

    /// Advertising_Enable: 0x00 stops advertising, 0x01 starts it; other values are kept.
    public var advertisingEnable: UInt8

    /// The command with these parameters.
    public init(advertisingEnable: UInt8) { self.advertisingEnable = advertisingEnable }
    /// Starts (`true`) or stops advertising.
    public init(enable: Bool) { self.init(advertisingEnable: enable ? 1 : 0) }
    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(advertisingEnable: 0) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&advertisingEnable, "Advertising_Enable")
    }
}
