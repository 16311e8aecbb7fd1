import BLECore

extension LEMetaEvent {
    /// HCI_LE_Channel_Selection_Algorithm, subevent 0x14 (Core v5.4, Vol 4, Part E, 7.7.65.20):
    /// which channel selection algorithm a new connection uses.
    ///
    /// Parameters after Subevent_Code: Connection_Handle (2), Channel_Selection_Algorithm (1).
    public struct ChannelSelectionAlgorithm: LEMetaSubeventParameters {
        /// The LE Meta subevent code this type decodes.
        public static var subeventCode: LEMetaSubeventCode { .channelSelectionAlgorithm }

        /// The Channel_Selection_Algorithm parameter. Unknown values are kept raw.
        public struct Algorithm: HCIFieldValue {
            /// The value as carried on the wire.
            public let rawValue: UInt8
            /// The value whose raw value is `rawValue`; every raw value is accepted.
            public init(rawValue: UInt8) { self.rawValue = rawValue }

            /// 0x00: LE Channel Selection Algorithm #1.
            public static let algorithm1 = Algorithm(rawValue: 0x00)
            /// 0x01: LE Channel Selection Algorithm #2.
            public static let algorithm2 = Algorithm(rawValue: 0x01)

            /// The value on one line, for logs and capture decoders.
            public var description: String {
                switch rawValue {
                case 0x00: return "#1"
                case 0x01: return "#2"
                default: return "algorithm 0x\(Hex.encode([rawValue]))"
                }
            }
        }

        /// Connection_Handle.
        public var connectionHandle: UInt16
        /// Channel_Selection_Algorithm.
        public var channelSelectionAlgorithm: Algorithm

        /// A value from its fields.
        public init(connectionHandle: UInt16, channelSelectionAlgorithm: Algorithm) {
            self.connectionHandle = connectionHandle
            self.channelSelectionAlgorithm = channelSelectionAlgorithm
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(connectionHandle: 0, channelSelectionAlgorithm: .algorithm1) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&connectionHandle, "Connection_Handle", format: .hex)
            try coder.code(&channelSelectionAlgorithm, "Channel_Selection_Algorithm")
        }
    }
}
