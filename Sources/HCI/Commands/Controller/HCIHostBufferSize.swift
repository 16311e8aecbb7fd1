/// HCI_Host_Buffer_Size, opcode 0x0C33 (Core v5.4, Vol 4, Part E, 7.3.39): tells the controller
/// the largest data packet the host accepts and how many it can hold, for flow control from the
/// controller to the host (``HCISetControllerToHostFlowControl``). Returns Status.
///
/// Parameters: Host_ACL_Data_Packet_Length (2), Host_Synchronous_Data_Packet_Length (1),
/// Host_Total_Num_ACL_Data_Packets (2), Host_Total_Num_Synchronous_Data_Packets (2).
public struct HCIHostBufferSize: HCICommand {
    /// Command Complete returns only Status.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x0C33.
    public static var opcode: HCIOpcode { .hostBufferSize }

    /// Host_ACL_Data_Packet_Length: the largest ACL data payload the host accepts, in octets.
    public var hostACLDataPacketLength: UInt16
    /// Host_Synchronous_Data_Packet_Length: the largest synchronous data payload, in octets.
    public var hostSynchronousDataPacketLength: UInt8
    /// Host_Total_Num_ACL_Data_Packets: how many ACL data packets the host can hold at once.
    public var hostTotalNumACLDataPackets: UInt16
    /// Host_Total_Num_Synchronous_Data_Packets: how many synchronous data packets it can hold.
    public var hostTotalNumSynchronousDataPackets: UInt16

    /// The command with these parameters.
    public init(hostACLDataPacketLength: UInt16, hostSynchronousDataPacketLength: UInt8 = 0,
                hostTotalNumACLDataPackets: UInt16, hostTotalNumSynchronousDataPackets: UInt16 = 0) {
        self.hostACLDataPacketLength = hostACLDataPacketLength
        self.hostSynchronousDataPacketLength = hostSynchronousDataPacketLength
        self.hostTotalNumACLDataPackets = hostTotalNumACLDataPackets
        self.hostTotalNumSynchronousDataPackets = hostTotalNumSynchronousDataPackets
    }
    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(hostACLDataPacketLength: 0, hostTotalNumACLDataPackets: 0) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&hostACLDataPacketLength, "Host_ACL_Data_Packet_Length")
        try coder.code(&hostSynchronousDataPacketLength, "Host_Synchronous_Data_Packet_Length")
        try coder.code(&hostTotalNumACLDataPackets, "Host_Total_Num_ACL_Data_Packets")
        try coder.code(&hostTotalNumSynchronousDataPackets, "Host_Total_Num_Synchronous_Data_Packets")
    }
}
