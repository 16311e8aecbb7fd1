extension LEMetaEvent {
    /// HCI_LE_Connection_Update_Complete, subevent 0x03 (Core v5.4, Vol 4, Part E, 7.7.65.3):
    /// a connection's parameters changed (or the update failed).
    ///
    /// Parameters after Subevent_Code: Status (1), Connection_Handle (2), Connection_Interval (2,
    /// 1.25 ms units), Peripheral_Latency (2), Supervision_Timeout (2, 10 ms units).
    public struct ConnectionUpdateComplete: LEMetaSubeventParameters {
        /// The LE Meta subevent code this type decodes.
        public static var subeventCode: LEMetaSubeventCode { .connectionUpdateComplete }

        /// Status: 0x00 when the new parameters are in force.
        public var status: HCIStatus
        /// Connection_Handle.
        public var connectionHandle: UInt16
        /// Connection_Interval now in use.
        public var connectionInterval: LEConnectionInterval
        /// Peripheral_Latency now in use.
        public var peripheralLatency: UInt16
        /// Supervision_Timeout now in use.
        public var supervisionTimeout: LESupervisionTimeout

        /// A value from its fields.
        public init(status: HCIStatus = .success, connectionHandle: UInt16, connectionInterval: LEConnectionInterval,
                    peripheralLatency: UInt16, supervisionTimeout: LESupervisionTimeout) {
            self.status = status
            self.connectionHandle = connectionHandle
            self.connectionInterval = connectionInterval
            self.peripheralLatency = peripheralLatency
            self.supervisionTimeout = supervisionTimeout
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() {
            self.init(connectionHandle: 0, connectionInterval: .init(rawValue: 0), peripheralLatency: 0,
                      supervisionTimeout: .init(rawValue: 0))
        }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try coder.code(&connectionHandle, "Connection_Handle", format: .hex)
            try coder.code(&connectionInterval, "Connection_Interval")
            try coder.code(&peripheralLatency, "Peripheral_Latency")
            try coder.code(&supervisionTimeout, "Supervision_Timeout")
        }
    }
}
