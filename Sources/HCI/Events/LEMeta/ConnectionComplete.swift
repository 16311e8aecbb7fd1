import BLECore

extension LEMetaEvent {
    /// HCI_LE_Connection_Complete, subevent 0x01 (Core v5.4, Vol 4, Part E, 7.7.65.1): a
    /// connection was created (or creating one failed or was cancelled).
    ///
    /// Parameters after Subevent_Code: Status (1), Connection_Handle (2), Role (1),
    /// Peer_Address_Type (1), Peer_Address (6), Connection_Interval (2, 1.25 ms units),
    /// Peripheral_Latency (2, connection events), Supervision_Timeout (2, 10 ms units),
    /// Central_Clock_Accuracy (1).
    public struct ConnectionComplete: LEMetaSubeventParameters {
        /// The LE Meta subevent code this type decodes.
        public static var subeventCode: LEMetaSubeventCode { .connectionComplete }

        /// Status: 0x00 when the connection exists; for example 0x02 Unknown Connection
        /// Identifier after HCI_LE_Create_Connection_Cancel.
        public var status: HCIStatus
        /// Connection_Handle of the new connection.
        public var connectionHandle: UInt16
        /// Role: this device's role.
        public var role: LERole
        /// Peer_Address_Type: public or random (0x00, 0x01).
        public var peerAddressType: LEAddressType
        /// Peer_Address.
        public var peerAddress: BluetoothAddress
        /// Connection_Interval, 7.5 ms...4 s.
        public var connectionInterval: LEConnectionInterval
        /// Peripheral_Latency: connection events the peripheral may skip.
        public var peripheralLatency: UInt16
        /// Supervision_Timeout, 100 ms...32 s.
        public var supervisionTimeout: LESupervisionTimeout
        /// Central_Clock_Accuracy (only meaningful on the peripheral).
        public var centralClockAccuracy: LEClockAccuracy

        /// A value from its fields.
        public init(status: HCIStatus = .success, connectionHandle: UInt16, role: LERole,
                    peerAddressType: LEAddressType, peerAddress: BluetoothAddress,
                    connectionInterval: LEConnectionInterval, peripheralLatency: UInt16,
                    supervisionTimeout: LESupervisionTimeout, centralClockAccuracy: LEClockAccuracy) {
            self.status = status
            self.connectionHandle = connectionHandle
            self.role = role
            self.peerAddressType = peerAddressType
            self.peerAddress = peerAddress
            self.connectionInterval = connectionInterval
            self.peripheralLatency = peripheralLatency
            self.supervisionTimeout = supervisionTimeout
            self.centralClockAccuracy = centralClockAccuracy
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() {
            self.init(connectionHandle: 0, role: .central, peerAddressType: .public, peerAddress: .zero,
                      connectionInterval: .init(rawValue: 0), peripheralLatency: 0,
                      supervisionTimeout: .init(rawValue: 0), centralClockAccuracy: .init(rawValue: 0))
        }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try coder.code(&connectionHandle, "Connection_Handle", format: .hex)
            try coder.code(&role, "Role")
            try coder.code(&peerAddressType, "Peer_Address_Type")
            try coder.code(&peerAddress, "Peer_Address")
            try coder.code(&connectionInterval, "Connection_Interval")
            try coder.code(&peripheralLatency, "Peripheral_Latency")
            try coder.code(&supervisionTimeout, "Supervision_Timeout")
            try coder.code(&centralClockAccuracy, "Central_Clock_Accuracy")
        }
    }
}
