/// HCI_LE_Remove_Advertising_Set, opcode 0x203C (Core v5.4, Vol 4, Part E, 7.8.59): removes one
/// advertising set; Command Disallowed while it is enabled, Unknown Advertising Identifier when
/// there is no such set.
///
/// Layout: Advertising_Handle (1). Command Complete returns Status alone.
public struct HCILERemoveAdvertisingSet: HCICommand {
    /// Status alone.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x203C.
    public static var opcode: HCIOpcode { .leRemoveAdvertisingSet }

    /// Advertising_Handle: the set, 0x00...0xEF.
    public var advertisingHandle: UInt8

    /// The command for set `advertisingHandle`.
    public init(advertisingHandle: UInt8) { self.advertisingHandle = advertisingHandle }
    /// Every field zero: the value decoding starts from.
    public init() { self.init(advertisingHandle: 0) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&advertisingHandle, "Advertising_Handle", format: .hex)
    }
}
