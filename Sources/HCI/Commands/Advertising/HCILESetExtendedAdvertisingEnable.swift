/// HCI_LE_Set_Extended_Advertising_Enable, opcode 0x2039 (Core v5.4, Vol 4, Part E, 7.8.56):
/// starts or stops advertising sets. Returns Status.
///
/// Parameters: Enable (1), Num_Sets (1; 0 with Enable 0x00 stops every set), then per set
/// Advertising_Handle[i] (1), Duration[i] (2, 10 ms units), Max_Extended_Advertising_Events[i] (1).
public struct HCILESetExtendedAdvertisingEnable: HCICommand {
    /// Command Complete returns only Status.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x2039.
    public static var opcode: HCIOpcode { .leSetExtendedAdvertisingEnable }

    /// One advertising set to start or stop.
    public struct AdvertisingSet: HCIParameterLayout {
        /// Advertising_Handle[i].
        public var advertisingHandle: UInt8
        /// Duration[i]: how long to advertise; 0 advertises until disabled.
        public var duration: HCIDuration<HCITimeUnit10ms>
        /// Max_Extended_Advertising_Events[i]: how many events to send; 0 sets no limit.
        public var maxExtendedAdvertisingEvents: UInt8

        /// A value from its fields.
        public init(advertisingHandle: UInt8, duration: HCIDuration<HCITimeUnit10ms> = .init(rawValue: 0),
                    maxExtendedAdvertisingEvents: UInt8 = 0) {
            self.advertisingHandle = advertisingHandle
            self.duration = duration
            self.maxExtendedAdvertisingEvents = maxExtendedAdvertisingEvents
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(advertisingHandle: 0) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&advertisingHandle, "Advertising_Handle", format: .hex)
            try coder.code(&duration, "Duration")
            try coder.code(&maxExtendedAdvertisingEvents, "Max_Extended_Advertising_Events")
        }
    }

    /// Enable: 0x00 stops the sets, 0x01 starts them.
    public var enable: UInt8
    /// The sets, Num_Sets of them.
    public var sets: [AdvertisingSet]

    /// The command with these parameters.
    public init(enable: UInt8, sets: [AdvertisingSet]) {
        self.enable = enable
        self.sets = sets
    }

    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(enable: 0, sets: []) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&enable, "Enable")
        try coder.code(counted: &sets, countField: "Num_Sets", "Sets")
    }
}
