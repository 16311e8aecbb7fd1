/// HCI_LE_Read_PHY, opcode 0x2030 (Core v5.4, Vol 4, Part E, 7.8.47): the PHYs a connection uses.
///
/// Parameters: Connection_Handle (2).
public struct HCILEReadPHY: HCICommand {
    public static var opcode: HCIOpcode { .leReadPHY }

    /// Connection_Handle.
    public var connectionHandle: UInt16

    public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }
    public init() { self.init(connectionHandle: 0) }

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

        public init(status: HCIStatus = .success, connectionHandle: UInt16, txPHY: LEPHY, rxPHY: LEPHY) {
            self.status = status
            self.connectionHandle = connectionHandle
            self.txPHY = txPHY
            self.rxPHY = rxPHY
        }

        public init() { self.init(connectionHandle: 0, txPHY: .le1M, rxPHY: .le1M) }

        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try coder.code(&connectionHandle, "Connection_Handle", format: .hex)
            try coder.code(&txPHY, "TX_PHY")
            try coder.code(&rxPHY, "RX_PHY")
        }
    }
}
