/// HCI_Read_Buffer_Size, opcode 0x1005 (Core v5.4, Vol 4, Part E, 7.4.5): the size and number of
/// the controller's ACL and synchronous data buffers. A controller whose HCI_LE_Read_Buffer_Size
/// returns a zero LE_ACL_Data_Packet_Length shares these buffers between BR/EDR and LE
/// (7.8.2), and the host's LE flow control runs on them. No parameters.
public struct HCIReadBufferSize: HCICommand {
    /// Opcode 0x1005.
    public static var opcode: HCIOpcode { .readBufferSize }

    /// The command, which has no parameters.
    public init() {}

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {}

    /// Status (1), ACL_Data_Packet_Length (2), Synchronous_Data_Packet_Length (1),
    /// Total_Num_ACL_Data_Packets (2), Total_Num_Synchronous_Data_Packets (2).
    public struct ReturnParameters: HCIReturnParameters {
        /// Status.
        public var status: HCIStatus
        /// ACL_Data_Packet_Length: the largest ACL data payload, in octets.
        public var aclDataPacketLength: UInt16
        /// Synchronous_Data_Packet_Length: the largest SCO data payload, in octets.
        public var synchronousDataPacketLength: UInt8
        /// Total_Num_ACL_Data_Packets: how many ACL data packets the controller can hold.
        public var totalNumACLDataPackets: UInt16
        /// Total_Num_Synchronous_Data_Packets: how many SCO data packets the controller can hold.
        public var totalNumSynchronousDataPackets: UInt16

        /// Return parameters from their values.
        public init(status: HCIStatus = .success, aclDataPacketLength: UInt16, synchronousDataPacketLength: UInt8 = 0,
                    totalNumACLDataPackets: UInt16, totalNumSynchronousDataPackets: UInt16 = 0) {
            self.status = status
            self.aclDataPacketLength = aclDataPacketLength
            self.synchronousDataPacketLength = synchronousDataPacketLength
            self.totalNumACLDataPackets = totalNumACLDataPackets
            self.totalNumSynchronousDataPackets = totalNumSynchronousDataPackets
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(aclDataPacketLength: 0, totalNumACLDataPackets: 0) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try coder.code(&aclDataPacketLength, "ACL_Data_Packet_Length")
            try coder.code(&synchronousDataPacketLength, "Synchronous_Data_Packet_Length")
            try coder.code(&totalNumACLDataPackets, "Total_Num_ACL_Data_Packets")
            try coder.code(&totalNumSynchronousDataPackets, "Total_Num_Synchronous_Data_Packets")
        }
    }
}
