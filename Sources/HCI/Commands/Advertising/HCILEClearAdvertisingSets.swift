/// HCI_LE_Clear_Advertising_Sets, opcode 0x203D (Core v5.4, Vol 4, Part E, 7.8.60): removes
/// every advertising set; Command Disallowed while any is enabled. No parameters; Command
/// Complete returns Status alone.
public struct HCILEClearAdvertisingSets: HCICommand {
    /// Status alone.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x203D.
    public static var opcode: HCIOpcode { .leClearAdvertisingSets }

    /// The command, which has no parameters.
    public init() {}

    /// Hands the fields above to `coder` (there are none; see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {}
}
