/// HCI_LE_Read_Buffer_Size [v1], opcode 0x2002 (Core v5.4, Vol 4, Part E, 7.8.2): the size and
/// number of the controller's LE ACL data buffers, which bound the host's ACL flow control.
/// No parameters.
public struct HCILEReadBufferSize: HCICommand {
    /// Opcode 0x2002.
    public static var opcode: HCIOpcode { .leReadBufferSize }

    /// The command, which has no parameters.
    public init() {}

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {}

    /// Status (1), LE_ACL_Data_Packet_Length (2), Total_Num_LE_ACL_Data_Packets (1).
    /// A zero length means LE shares the BR/EDR buffers (HCI_Read_Buffer_Size).
    public struct ReturnParameters: HCIReturnParameters {
        /// Status.
        public var status: HCIStatus
        /// LE_ACL_Data_Packet_Length: the largest ACL data payload, in octets.
        public var leACLDataPacketLength: UInt16
        /// Total_Num_LE_ACL_Data_Packets: how many ACL data packets the controller can hold.
        public var totalNumLEACLDataPackets: UInt8

        /// Return parameters from their values.
        public init(status: HCIStatus = .success, leACLDataPacketLength: UInt16, totalNumLEACLDataPackets: UInt8) {
            self.status = status
            self.leACLDataPacketLength = leACLDataPacketLength
            self.totalNumLEACLDataPackets = totalNumLEACLDataPackets
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(leACLDataPacketLength: 0, totalNumLEACLDataPackets: 0) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try coder.code(&leACLDataPacketLength, "LE_ACL_Data_Packet_Length")
            try coder.code(&totalNumLEACLDataPackets, "Total_Num_LE_ACL_Data_Packets")
        }
    }
}

/// HCI_LE_Read_Buffer_Size [v2], opcode 0x2060 (Core v5.4, Vol 4, Part E, 7.8.2): as v1, plus
/// the controller's ISO data buffers. No parameters.
public struct HCILEReadBufferSizeV2: HCICommand {
    /// Opcode 0x2002.
    public static var opcode: HCIOpcode { .leReadBufferSizeV2 }

    /// The command, which has no parameters.
    public init() {}

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {}

    /// Status (1), LE_ACL_Data_Packet_Length (2), Total_Num_LE_ACL_Data_Packets (1),
    /// ISO_Data_Packet_Length (2), Total_Num_ISO_Data_Packets (1).
    public struct ReturnParameters: HCIReturnParameters {
        /// Status.
        public var status: HCIStatus
        /// LE_ACL_Data_Packet_Length: the largest ACL data payload, in octets.
        public var leACLDataPacketLength: UInt16
        /// Total_Num_LE_ACL_Data_Packets: how many ACL data packets the controller can hold.
        public var totalNumLEACLDataPackets: UInt8
        /// ISO_Data_Packet_Length: the largest ISO data payload, in octets.
        public var isoDataPacketLength: UInt16
        /// Total_Num_ISO_Data_Packets: how many ISO data packets the controller can hold.
        public var totalNumISODataPackets: UInt8

        /// Return parameters from their values.
        public init(status: HCIStatus = .success, leACLDataPacketLength: UInt16, totalNumLEACLDataPackets: UInt8,
                    isoDataPacketLength: UInt16, totalNumISODataPackets: UInt8) {
            self.status = status
            self.leACLDataPacketLength = leACLDataPacketLength
            self.totalNumLEACLDataPackets = totalNumLEACLDataPackets
            self.isoDataPacketLength = isoDataPacketLength
            self.totalNumISODataPackets = totalNumISODataPackets
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() {
            self.init(leACLDataPacketLength: 0, totalNumLEACLDataPackets: 0, isoDataPacketLength: 0, totalNumISODataPackets: 0)
        }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try coder.code(&leACLDataPacketLength, "LE_ACL_Data_Packet_Length")
            try coder.code(&totalNumLEACLDataPackets, "Total_Num_LE_ACL_Data_Packets")
            try coder.code(&isoDataPacketLength, "ISO_Data_Packet_Length")
            try coder.code(&totalNumISODataPackets, "Total_Num_ISO_Data_Packets")
        }
    }
}
