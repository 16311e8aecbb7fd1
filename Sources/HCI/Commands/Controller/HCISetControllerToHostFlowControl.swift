/// HCI_Set_Controller_To_Host_Flow_Control, opcode 0x0C31 (Core v5.4, Vol 4, Part E, 7.3.38):
/// turns flow control from the controller to the host on or off. With ACL flow control on, the
/// controller sends the host no more ACL data packets than the host's buffers hold (declared
/// with ``HCIHostBufferSize``) until the host returns them with
/// ``HCIHostNumberOfCompletedPackets`` (4.2). Returns Status.
///
/// Parameters: Flow_Control_Enable (1).
public struct HCISetControllerToHostFlowControl: HCICommand {
    /// Command Complete returns only Status.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x0C31.
    public static var opcode: HCIOpcode { .setControllerToHostFlowControl }

    /// Flow_Control_Enable: 0x00 off, 0x01 ACL on and synchronous off, 0x02 synchronous on and
    /// ACL off, 0x03 both on.
    public var flowControlEnable: UInt8

    /// Flow control off (0x00).
    public static let off: UInt8 = 0x00
    /// ACL data flow control on, synchronous off (0x01).
    public static let aclOnly: UInt8 = 0x01

    /// The command with these parameters.
    public init(flowControlEnable: UInt8) { self.flowControlEnable = flowControlEnable }
    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(flowControlEnable: Self.off) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&flowControlEnable, "Flow_Control_Enable", format: .hex)
    }
}
