/// HCI_LE_Create_Connection_Cancel, opcode 0x200E (Core v5.4, Vol 4, Part E, 7.8.13): stops a
/// pending LE Create Connection or LE Extended Create Connection. No parameters; returns Status,
/// then the pending command ends with a connection complete event with Status 0x02 Unknown
/// Connection Identifier.
public struct HCILECreateConnectionCancel: HCICommand {
    public typealias ReturnParameters = HCIStatusReturnParameters
    public static var opcode: HCIOpcode { .leCreateConnectionCancel }

    public init() {}

    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {}
}
