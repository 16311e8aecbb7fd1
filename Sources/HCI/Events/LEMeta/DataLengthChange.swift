extension LEMetaEvent {
    /// HCI_LE_Data_Length_Change, subevent 0x07 (Core v5.4, Vol 4, Part E, 7.7.65.7): the
    /// largest LL data PDU payloads and their air times changed on a connection.
    ///
    /// Parameters after Subevent_Code: Connection_Handle (2), Max_TX_Octets (2), Max_TX_Time (2,
    /// µs), Max_RX_Octets (2), Max_RX_Time (2, µs).
    public struct DataLengthChange: LEMetaSubeventParameters {
        /// The LE Meta subevent code this type decodes.
        public static var subeventCode: LEMetaSubeventCode { .dataLengthChange }

        /// Connection_Handle.
        public var connectionHandle: UInt16
        /// Max_TX_Octets: the largest payload this device will send, 27...251 octets.
        public var maxTXOctets: UInt16
        /// Max_TX_Time: the longest time it will take to send one, 328...17040 µs.
        public var maxTXTime: HCIDuration<HCITimeUnit1us>
        /// Max_RX_Octets: the largest payload it expects to receive, 27...251 octets.
        public var maxRXOctets: UInt16
        /// Max_RX_Time: the longest time it expects one to take, 328...17040 µs.
        public var maxRXTime: HCIDuration<HCITimeUnit1us>

        /// A value from its fields.
        public init(connectionHandle: UInt16, maxTXOctets: UInt16, maxTXTime: HCIDuration<HCITimeUnit1us>,
                    maxRXOctets: UInt16, maxRXTime: HCIDuration<HCITimeUnit1us>) {
            self.connectionHandle = connectionHandle
            self.maxTXOctets = maxTXOctets
            self.maxTXTime = maxTXTime
            self.maxRXOctets = maxRXOctets
            self.maxRXTime = maxRXTime
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() {
            self.init(connectionHandle: 0, maxTXOctets: 0, maxTXTime: .init(rawValue: 0),
                      maxRXOctets: 0, maxRXTime: .init(rawValue: 0))
        }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&connectionHandle, "Connection_Handle", format: .hex)
            try coder.code(&maxTXOctets, "Max_TX_Octets")
            try coder.code(&maxTXTime, "Max_TX_Time")
            try coder.code(&maxRXOctets, "Max_RX_Octets")
            try coder.code(&maxRXTime, "Max_RX_Time")
        }
    }
}
