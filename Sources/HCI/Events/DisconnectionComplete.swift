extension HCIEvent {
    /// HCI_Disconnection_Complete, event 0x05 (Core v5.4, Vol 4, Part E, 7.7.5): a connection
    /// ended.
    ///
    /// Parameters: Status (1), Connection_Handle (2), Reason (1, an error code from Vol 1, Part F).
    public struct DisconnectionComplete: HCIEventParameters {
        /// The event code this type decodes.
        public static var eventCode: HCIEventCode { .disconnectionComplete }

        /// Status: 0x00 when the disconnection happened.
        public var status: HCIStatus
        /// Connection_Handle (12 bits meaningful; the upper bits are kept as received).
        public var connectionHandle: UInt16
        /// Reason: why the connection ended, for example 0x13 Remote User Terminated Connection
        /// or 0x08 Connection Timeout.
        public var reason: HCIStatus

        /// A value from its fields.
        public init(status: HCIStatus = .success, connectionHandle: UInt16, reason: HCIStatus) {
            self.status = status
            self.connectionHandle = connectionHandle
            self.reason = reason
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(connectionHandle: 0, reason: .success) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try coder.code(&connectionHandle, "Connection_Handle", format: .hex)
            try coder.code(&reason, "Reason")
        }
    }
}
