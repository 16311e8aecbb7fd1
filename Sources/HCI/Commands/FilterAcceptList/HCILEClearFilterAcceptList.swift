/// HCI_LE_Clear_Filter_Accept_List, opcode 0x2010 (Core v5.4, Vol 4, Part E, 7.8.15): empties the
/// Filter Accept List. Command Disallowed while a scan, an advertising set or an initiator uses
/// the list. No parameters; returns Status.
public struct HCILEClearFilterAcceptList: HCICommand {
    /// Command Complete returns only Status.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x2010.
    public static var opcode: HCIOpcode { .leClearFilterAcceptList }

    /// The command, which has no parameters.
    public init() {}

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {}
}
