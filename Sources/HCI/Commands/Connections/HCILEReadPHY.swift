/// HCI_LE_Read_PHY, opcode 0x2030 (Core v5.4, Vol 4, Part E, 7.8.47): the PHYs a connection uses.
///
/// Parameters: Connection_Handle (2).
public struct HCILEReadPHY: HCICommand {
    /// Opcode 0x2030.
    public static var opcode: HCIOpcode { .leReadPHY }

    /// Connection_Handle.
    public var connectionHandle: UInt16

    /// The command with these parameters.
    public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }
    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(connectionHandle: 0) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&connectionHandle, "Connection_Handle", format: .hex)
    }

    /// Status (1), Connection_Handle (2), TX_PHY (1), RX_PHY (1).
    public struct ReturnParameters: HCIReturnParameters {
        /// Status.
        public var status: HCIStatus
        /// Connection_Handle.
        public var connectionHandle: UInt16
        /// TX_PHY: the transmitter PHY.
        public var txPHY: LEPHY
        /// RX_PHY: the receiver PHY.
        public var rxPHY: LEPHY

        /// Return parameters from their values.
        public init(status: HCIStatus = .success, connectionHandle: UInt16, txPHY: LEPHY, rxPHY: LEPHY) {
            self.status = status
            self.connectionHandle = connectionHandle
            self.txPHY = txPHY
            self.rxPHY = rxPHY
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(connectionHandle: 0, txPHY: .init(rawValue: 0), rxPHY: .init(rawValue: 0)) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try coder.code(&connectionHandle, "Connection_Handle", format: .hex)
            try coder.code(&txPHY, "TX_PHY")
            try coder.code(&rxPHY, "RX_PHY")
        }
    }
}
