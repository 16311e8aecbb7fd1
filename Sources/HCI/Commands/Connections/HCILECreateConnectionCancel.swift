/// HCI_LE_Create_Connection_Cancel, opcode 0x200E (Core v5.4, Vol 4, Part E, 7.8.13): stops a
/// pending LE Create Connection or LE Extended Create Connection. No parameters; returns Status,
/// then the pending command ends with a connection complete event with Status 0x02 Unknown
/// Connection Identifier.
public struct HCILECreateConnectionCancel: HCICommand {
    /// Command Complete returns only Status.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x200E.
    public static var opcode: HCIOpcode { .leCreateConnectionCancel }

    /// The command, which has no parameters.
    public init() {}

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {}
}
