/// HCI_Reset, opcode 0x0C03 (Core v5.4, Vol 4, Part E, 7.3.2): resets the controller and its
/// link manager, baseband and Link Layer. No parameters; returns Status.
public struct HCIReset: HCICommand {
    /// Command Complete returns only Status.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x0C03.
    public static var opcode: HCIOpcode { .reset }

    /// The command, which has no parameters.
    public init() {}

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {}
}
