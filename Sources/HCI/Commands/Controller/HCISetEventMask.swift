/// HCI_Set_Event_Mask, opcode 0x0C01 (Core v5.4, Vol 4, Part E, 7.3.1): chooses the events the
/// controller may send. Returns Status.
///
/// Parameters: Event_Mask (8).
public struct HCISetEventMask: HCICommand {
    /// Command Complete returns only Status.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x0C01.
    public static var opcode: HCIOpcode { .setEventMask }

    /// Event_Mask: the events enabled.
    public var eventMask: HCIEventMask

    /// The command with these parameters.
    public init(eventMask: HCIEventMask) { self.eventMask = eventMask }
    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(eventMask: []) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&eventMask, "Event_Mask")
    }
}
