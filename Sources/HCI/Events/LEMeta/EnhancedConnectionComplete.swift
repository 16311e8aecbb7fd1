import BLECore

extension LEMetaEvent {
    /// HCI_LE_Enhanced_Connection_Complete [v1], subevent 0x0A (Core v5.4, Vol 4, Part E,
    /// 7.7.65.10): a connection was created, with the resolvable private addresses in use.
    ///
    /// Parameters after Subevent_Code: Status (1), Connection_Handle (2), Role (1),
    /// Peer_Address_Type (1, 0x00...0x03), Peer_Address (6), Local_Resolvable_Private_Address (6),
    /// Peer_Resolvable_Private_Address (6), Connection_Interval (2, 1.25 ms units),
    /// Peripheral_Latency (2), Supervision_Timeout (2, 10 ms units), Central_Clock_Accuracy (1).
    public struct EnhancedConnectionComplete: LEMetaSubeventParameters {
        /// The LE Meta subevent code this type decodes.
        public static var subeventCode: LEMetaSubeventCode { .enhancedConnectionComplete }

        /// Status: 0x00 when the connection exists.
        public var status: HCIStatus
        /// Connection_Handle of the new connection.
        public var connectionHandle: UInt16
        /// Role: this device's role.
        public var role: LERole
        /// Peer_Address_Type: public, random, or a resolved public or random identity (0x02, 0x03).
        public var peerAddressType: LEAddressType
        /// Peer_Address (the identity address when the controller resolved it).
        public var peerAddress: BluetoothAddress
        /// Local_Resolvable_Private_Address: the RPA this device used; all zeros when none.
        public var localResolvablePrivateAddress: BluetoothAddress
        /// Peer_Resolvable_Private_Address: the RPA the peer used; all zeros when none.
        public var peerResolvablePrivateAddress: BluetoothAddress
        /// Connection_Interval.
        public var connectionInterval: LEConnectionInterval
        /// Peripheral_Latency: connection events the peripheral may skip.
        public var peripheralLatency: UInt16
        /// Supervision_Timeout.
        public var supervisionTimeout: LESupervisionTimeout
        /// Central_Clock_Accuracy.
        public var centralClockAccuracy: LEClockAccuracy

        /// A value from its fields.
        public init(status: HCIStatus = .success, connectionHandle: UInt16, role: LERole,
                    peerAddressType: LEAddressType, peerAddress: BluetoothAddress,
                    localResolvablePrivateAddress: BluetoothAddress = .zero,
                    peerResolvablePrivateAddress: BluetoothAddress = .zero,
                    connectionInterval: LEConnectionInterval, peripheralLatency: UInt16,
                    supervisionTimeout: LESupervisionTimeout, centralClockAccuracy: LEClockAccuracy) {
            self.status = status
            self.connectionHandle = connectionHandle
            self.role = role
            self.peerAddressType = peerAddressType
            self.peerAddress = peerAddress
            self.localResolvablePrivateAddress = localResolvablePrivateAddress
            self.peerResolvablePrivateAddress = peerResolvablePrivateAddress
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
            try coder.code(&localResolvablePrivateAddress, "Local_Resolvable_Private_Address")
            try coder.code(&peerResolvablePrivateAddress, "Peer_Resolvable_Private_Address")
            try coder.code(&connectionInterval, "Connection_Interval")
            try coder.code(&peripheralLatency, "Peripheral_Latency")
            try coder.code(&supervisionTimeout, "Supervision_Timeout")
            try coder.code(&centralClockAccuracy, "Central_Clock_Accuracy")
        }
    }

    /// HCI_LE_Enhanced_Connection_Complete [v2], subevent 0x29 (Core v5.4, Vol 4, Part E,
    /// 7.7.65.10): the v1 parameters followed by Advertising_Handle (1) and Sync_Handle (2),
    /// which say which advertising set or periodic advertising train the connection came from.
    @dynamicMemberLookup
    public struct EnhancedConnectionCompleteV2: LEMetaSubeventParameters {
        /// The LE Meta subevent code this type decodes.
        public static var subeventCode: LEMetaSubeventCode { .enhancedConnectionCompleteV2 }

        /// The parameters v1 also carries, laid out as in v1.
        public var connection: EnhancedConnectionComplete
        /// Advertising_Handle: the advertising set that accepted the connection; 0xFF when none.
        public var advertisingHandle: UInt8
        /// Sync_Handle: the periodic advertising train (PAwR); 0xFFFF when none.
        public var syncHandle: UInt16

        /// A value from its fields.
        public init(connection: EnhancedConnectionComplete, advertisingHandle: UInt8 = 0xFF, syncHandle: UInt16 = 0xFFFF) {
            self.connection = connection
            self.advertisingHandle = advertisingHandle
            self.syncHandle = syncHandle
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(connection: EnhancedConnectionComplete(), advertisingHandle: 0, syncHandle: 0) }

        /// The v1 fields, read and written in place (`event.connectionHandle`).
        public subscript<T>(dynamicMember keyPath: WritableKeyPath<EnhancedConnectionComplete, T>) -> T {
            get { connection[keyPath: keyPath] }
            set { connection[keyPath: keyPath] = newValue }
        }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try connection.layout(&coder)
            try coder.code(&advertisingHandle, "Advertising_Handle", format: .hex)
            try coder.code(&syncHandle, "Sync_Handle", format: .hex)
        }
    }
}
