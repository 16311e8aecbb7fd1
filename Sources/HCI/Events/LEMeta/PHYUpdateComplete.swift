extension LEMetaEvent {
    /// HCI_LE_PHY_Update_Complete, subevent 0x0C (Core v5.4, Vol 4, Part E, 7.7.65.12): the PHYs
    /// of a connection changed, or an HCI_LE_Set_PHY request ended without a change.
    ///
    /// Parameters after Subevent_Code: Status (1), Connection_Handle (2), TX_PHY (1), RX_PHY (1).
    public struct PHYUpdateComplete: LEMetaSubeventParameters {
        /// The LE Meta subevent code this type decodes.
        public static var subeventCode: LEMetaSubeventCode { .phyUpdateComplete }

        /// Status: 0x00 when the PHYs below are in use.
        public var status: HCIStatus
        /// Connection_Handle.
        public var connectionHandle: UInt16
        /// TX_PHY: the transmitter PHY now in use.
        public var txPHY: LEPHY
        /// RX_PHY: the receiver PHY now in use.
        public var rxPHY: LEPHY

        /// A value from its fields.
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
