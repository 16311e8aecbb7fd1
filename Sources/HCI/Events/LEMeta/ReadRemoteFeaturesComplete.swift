extension LEMetaEvent {
    /// HCI_LE_Read_Remote_Features_Complete, subevent 0x04 (Core v5.4, Vol 4, Part E,
    /// 7.7.65.4): the peer's LE features, after HCI_LE_Read_Remote_Features or the controller's
    /// own feature exchange.
    ///
    /// Parameters after Subevent_Code: Status (1), Connection_Handle (2), LE_Features (8).
    public struct ReadRemoteFeaturesComplete: LEMetaSubeventParameters {
        /// The LE Meta subevent code this type decodes.
        public static var subeventCode: LEMetaSubeventCode { .readRemoteFeaturesComplete }

        /// Status: 0x00 when LE_Features is valid.
        public var status: HCIStatus
        /// Connection_Handle.
        public var connectionHandle: UInt16
        /// LE_Features: the peer's feature page 0.
        public var leFeatures: LEFeatures

        /// A value from its fields.
        public init(status: HCIStatus = .success, connectionHandle: UInt16, leFeatures: LEFeatures) {
            self.status = status
            self.connectionHandle = connectionHandle
            self.leFeatures = leFeatures
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(connectionHandle: 0, leFeatures: []) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try coder.code(&connectionHandle, "Connection_Handle", format: .hex)
            try coder.code(&leFeatures, "LE_Features")
        }
    }
}
