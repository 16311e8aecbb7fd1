extension LEMetaSubeventCode {
    /// 0x11: HCI_LE_Scan_Timeout (7.7.65.17).
    public static let scanTimeout = LEMetaSubeventCode(rawValue: 0x11)
}

extension LEMetaEvent {
    /// HCI_LE_Scan_Timeout, subevent 0x11 (Core v5.4, Vol 4, Part E, 7.7.65.17): scanning that
    /// the host started with a Duration (HCI_LE_Set_Extended_Scan_Enable) has ended. No
    /// parameters. (``LEMetaEvent`` keeps it as an unknown subevent when decoding.)
    public struct ScanTimeout: LEMetaSubeventParameters {
        /// Subevent 0x11.
        public static var subeventCode: LEMetaSubeventCode { .scanTimeout }

        /// The event, which has no parameters.
        public init() {}

        /// Hands the fields above to `coder` (there are none; see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {}
    }
}
