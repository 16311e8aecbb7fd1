extension HCIEvent {
    /// HCI_Number_Of_Completed_Packets, event 0x13 (Core v5.4, Vol 4, Part E, 7.7.19): how many
    /// data packets the controller has finished with, per connection; the host's flow control
    /// returns that many buffers.
    ///
    /// Parameters: Num_Handles (1), then per handle Connection_Handle[i] (2) and
    /// Num_Completed_Packets[i] (2), element by element (Vol 4, Part E, 5.2).
    public struct NumberOfCompletedPackets: HCIEventParameters {
        /// The event code this type decodes.
        public static var eventCode: HCIEventCode { .numberOfCompletedPackets }

        /// One connection's count.
        public struct Entry: HCIParameterLayout {
            /// Connection_Handle[i].
            public var connectionHandle: UInt16
            /// Num_Completed_Packets[i]: packets completed since the previous event.
            public var numCompletedPackets: UInt16

            /// A value from its fields.
            public init(connectionHandle: UInt16, numCompletedPackets: UInt16) {
                self.connectionHandle = connectionHandle
                self.numCompletedPackets = numCompletedPackets
            }

            /// Every field zero or empty: the value decoding starts from.
            public init() { self.init(connectionHandle: 0, numCompletedPackets: 0) }

            /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
            public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
                try coder.code(&connectionHandle, "Connection_Handle", format: .hex)
                try coder.code(&numCompletedPackets, "Num_Completed_Packets")
            }
        }

        /// The counts, Num_Handles of them.
        public var entries: [Entry]

        /// A value from its fields.
        public init(entries: [Entry]) { self.entries = entries }
        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(entries: []) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(counted: &entries, countField: "Num_Handles", "Handles")
        }
    }
}
