/// HCI_LE_Set_Advertising_Enable, opcode 0x200A (Core v5.4, Vol 4, Part E, 7.8.9): starts or
/// stops legacy advertising. Returns Status.
///
/// Parameters: Advertising_Enable (1).
public struct HCILESetAdvertisingEnable: HCICommand {
    public typealias ReturnParameters = HCIStatusReturnParameters
    public static var opcode: HCIOpcode { .leSetAdvertisingEnable }

    /// Advertising_Enable: 0x00 stops advertising, 0x01 starts it; other values are kept.
    public var advertisingEnable: UInt8

    public init(advertisingEnable: UInt8) { self.advertisingEnable = advertisingEnable }
    /// Starts (`true`) or stops advertising.
    public init(enable: Bool) { self.init(advertisingEnable: enable ? 1 : 0) }
    public init() { self.init(advertisingEnable: 0) }

    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&advertisingEnable, "Advertising_Enable")
    }
}
