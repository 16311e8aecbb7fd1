extension HCIEvent {
    /// HCI_Hardware_Error, event 0x10 (Core v5.4, Vol 4, Part E, 7.7.16): the controller found a
    /// hardware failure; the host usually resets it.
    ///
    /// Parameters: Hardware_Code (1, vendor-defined).
    public struct HardwareError: HCIEventParameters {
        /// The event code this type decodes.
        public static var eventCode: HCIEventCode { .hardwareError }

        /// Hardware_Code: what failed, in the manufacturer's terms.
        public var hardwareCode: UInt8

        /// A value from its fields.
        public init(hardwareCode: UInt8) { self.hardwareCode = hardwareCode }
        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(hardwareCode: 0) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&hardwareCode, "Hardware_Code", format: .hex)
        }
    }
}
