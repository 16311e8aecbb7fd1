import BLECore

extension LEMetaEvent {
    /// HCI_LE_Advertising_Set_Terminated, subevent 0x12 (Core v5.4, Vol 4, Part E, 7.7.65.18):
    /// an advertising set stopped because a connection was created from it (Status 0x00), its
    /// Duration ended (0x3C Advertising Timeout), or it sent its Max_Extended_Advertising_Events
    /// (0x43 Limit Reached).
    ///
    /// Parameters after Subevent_Code: Status (1), Advertising_Handle (1), Connection_Handle (2,
    /// meaningful only when Status is 0x00), Num_Completed_Extended_Advertising_Events (1).
    ///
    /// ``LEMetaEvent`` has no case for it yet: it arrives as ``LEMetaEvent/unknown(subevent:parameters:)``
    /// with ``LEMetaSubeventCode/advertisingSetTerminated``; decode the parameters with
    /// ``HCIParameterLayout/init(decoding:)``.
    public struct AdvertisingSetTerminated: LEMetaSubeventParameters {
        /// The LE Meta subevent code this type decodes.
        public static var subeventCode: LEMetaSubeventCode { .advertisingSetTerminated }

        /// Status: 0x00 when a connection ended the advertising, otherwise why it ended.
        public var status: HCIStatus
        /// Advertising_Handle: the set that stopped.
        public var advertisingHandle: UInt8
        /// Connection_Handle: the connection created from the set (Status 0x00 only; 12 bits
        /// meaningful, the upper bits kept as received).
        public var connectionHandle: UInt16
        /// Num_Completed_Extended_Advertising_Events: extended advertising events sent, when
        /// Max_Extended_Advertising_Events was set; otherwise not meaningful.
        public var numCompletedExtendedAdvertisingEvents: UInt8

        /// A value from its fields.
        public init(status: HCIStatus = .success, advertisingHandle: UInt8, connectionHandle: UInt16,
                    numCompletedExtendedAdvertisingEvents: UInt8 = 0) {
            self.status = status
            self.advertisingHandle = advertisingHandle
            self.connectionHandle = connectionHandle
            self.numCompletedExtendedAdvertisingEvents = numCompletedExtendedAdvertisingEvents
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(advertisingHandle: 0, connectionHandle: 0) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try coder.code(&advertisingHandle, "Advertising_Handle", format: .hex)
            try coder.code(&connectionHandle, "Connection_Handle", format: .hex)
            try coder.code(&numCompletedExtendedAdvertisingEvents, "Num_Completed_Extended_Advertising_Events")
        }
    }
}
