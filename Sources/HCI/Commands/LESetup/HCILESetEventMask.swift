/// HCI_LE_Set_Event_Mask, opcode 0x2001 (Core v5.4, Vol 4, Part E, 7.8.1): chooses the LE Meta
/// subevents the controller may send. Returns Status.
///
/// Parameters: LE_Event_Mask (8).
public struct HCILESetEventMask: HCICommand {
    /// Command Complete returns only Status.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x2001.
    public static var opcode: HCIOpcode { .leSetEventMask }

    /// LE_Event_Mask: the subevents enabled.
    public var leEventMask: LEEventMask

    /// The command with these parameters.
    public init(leEventMask: LEEventMask) { self.leEventMask = leEventMask }
    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(leEventMask: []) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&leEventMask, "LE_Event_Mask")
    }
}
