/// HCI_LE_Set_Event_Mask, opcode 0x2001 (Core v5.4, Vol 4, Part E, 7.8.1): chooses the LE Meta
/// subevents the controller may send. Returns Status.
///
/// Parameters: LE_Event_Mask (8).
public struct HCILESetEventMask: HCICommand {
    public typealias ReturnParameters = HCIStatusReturnParameters
    public static var opcode: HCIOpcode { .leSetEventMask }

    /// LE_Event_Mask: the subevents enabled.
    public var leEventMask: LEEventMask

    public init(leEventMask: LEEventMask) { self.leEventMask = leEventMask }
    public init() { self.init(leEventMask: []) }

    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&leEventMask, "LE_Event_Mask")
    }
}
