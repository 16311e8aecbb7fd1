extension LEMetaEvent {
    /// HCI_LE_Advertising_Report, subevent 0x02 (Core v5.4, Vol 4, Part E, 7.7.65.2): legacy
    /// advertising PDUs received while scanning.
    ///
    /// Parameters after Subevent_Code: Num_Reports (1, 0x01...0x19), then the reports, each
    /// laid out as ``LEAdvertisingReport`` describes.
    public struct AdvertisingReport: LEMetaSubeventParameters {
        /// The LE Meta subevent code this type decodes.
        public static var subeventCode: LEMetaSubeventCode { .advertisingReport }

        /// The reports, Num_Reports of them.
        public var reports: [LEAdvertisingReport]

        /// A value from its fields.
        public init(reports: [LEAdvertisingReport]) { self.reports = reports }
        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(reports: []) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(counted: &reports, countField: "Num_Reports", "Reports")
        }
    }

    /// HCI_LE_Extended_Advertising_Report, subevent 0x0D (Core v5.4, Vol 4, Part E, 7.7.65.13):
    /// legacy and extended advertising PDUs received while extended scanning.
    ///
    /// Parameters after Subevent_Code: Num_Reports (1, 0x01...0x0A), then the reports, each laid
    /// out as ``LEExtendedAdvertisingReport`` describes. Reserved Event_Type bits are kept.
    public struct ExtendedAdvertisingReport: LEMetaSubeventParameters {
        /// The LE Meta subevent code this type decodes.
        public static var subeventCode: LEMetaSubeventCode { .extendedAdvertisingReport }

        /// The reports, Num_Reports of them.
        public var reports: [LEExtendedAdvertisingReport]

        /// A value from its fields.
        public init(reports: [LEExtendedAdvertisingReport]) { self.reports = reports }
        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(reports: []) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(counted: &reports, countField: "Num_Reports", "Reports")
        }
    }
}
