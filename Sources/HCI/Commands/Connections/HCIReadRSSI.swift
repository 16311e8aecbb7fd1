/// HCI_Read_RSSI, opcode 0x1405 (Core v5.4, Vol 4, Part E, 7.5.4): the received signal strength
/// of a connection. On an LE link it is the absolute level in dBm, -127...20 (127: not
/// available).
///
/// Parameters: Handle (2).
public struct HCIReadRSSI: HCICommand {
    /// Opcode 0x1405.
    public static var opcode: HCIOpcode { .readRSSI }

    /// Handle: the connection to measure.
    public var handle: UInt16

    /// The command for connection `handle`.
    public init(handle: UInt16) { self.handle = handle }
    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(handle: 0) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&handle, "Handle", format: .hex)
    }

    /// Status (1), Handle (2), RSSI (1, signed, dBm).
    public struct ReturnParameters: HCIReturnParameters {
        /// Status.
        public var status: HCIStatus
        /// Handle: the connection measured.
        public var handle: UInt16
        /// RSSI, in dBm; 127 when the controller cannot tell.
        public var rssi: Int8

        /// Return parameters from their values.
        public init(status: HCIStatus = .success, handle: UInt16, rssi: Int8) {
            self.status = status
            self.handle = handle
            self.rssi = rssi
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(handle: 0, rssi: 0) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try coder.code(&handle, "Handle", format: .hex)
            try coder.code(dBm: &rssi, "RSSI")
        }
    }
}
