import BLECore

/// HCI_Read_BD_ADDR, opcode 0x1009 (Core v5.4, Vol 4, Part E, 7.4.6): the controller's public
/// device address. No parameters.
public struct HCIReadBDADDR: HCICommand {
    /// Opcode 0x1009.
    public static var opcode: HCIOpcode { .readBDADDR }

    /// The command, which has no parameters.
    public init() {}

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {}

    /// Status (1), BD_ADDR (6).
    public struct ReturnParameters: HCIReturnParameters {
        /// Status.
        public var status: HCIStatus
        /// BD_ADDR: the public device address; 00:00:00:00:00:00 on controllers without one.
        public var bdAddr: BluetoothAddress

        /// Return parameters from their values.
        public init(status: HCIStatus = .success, bdAddr: BluetoothAddress) {
            self.status = status
            self.bdAddr = bdAddr
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(bdAddr: .zero) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try coder.code(&bdAddr, "BD_ADDR")
        }
    }
}
