/// HCI_Reset, opcode 0x0C03 (Core v5.4, Vol 4, Part E, 7.3.2): resets the controller and its
/// link manager, baseband and Link Layer. No parameters; returns Status.
public struct HCIReset: HCICommand {
    public typealias ReturnParameters = HCIStatusReturnParameters
    public static var opcode: HCIOpcode { .reset }

    public init() {}

    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {}
}
