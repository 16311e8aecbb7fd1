import BLECore

extension HCIEvent {
    /// HCI_Encryption_Change [v1], event 0x08 (Core v5.4, Vol 4, Part E, 7.7.8): encryption of a
    /// connection was switched on or off, or failed to be.
    ///
    /// Parameters: Status (1), Connection_Handle (2), Encryption_Enabled (1).
    public struct EncryptionChange: HCIEventParameters {
        /// The event code this type decodes.
        public static var eventCode: HCIEventCode { .encryptionChange }

        /// The Encryption_Enabled parameter. Unknown values are kept raw.
        public struct EncryptionEnabled: HCIFieldValue {
            /// The value as carried on the wire.
            public let rawValue: UInt8
            /// The value whose raw value is `rawValue`; every raw value is accepted.
            public init(rawValue: UInt8) { self.rawValue = rawValue }

            /// 0x00: link-level encryption is off.
            public static let off = EncryptionEnabled(rawValue: 0x00)
            /// 0x01: encryption is on: AES-CCM on LE (E0 on BR/EDR).
            public static let on = EncryptionEnabled(rawValue: 0x01)
            /// 0x02: encryption is on with AES-CCM on BR/EDR.
            public static let onAESCCMBREDR = EncryptionEnabled(rawValue: 0x02)

            /// The value on one line, for logs and capture decoders.
            public var description: String {
                switch rawValue {
                case 0x00: return "off"
                case 0x01: return "on"
                case 0x02: return "on (AES-CCM, BR/EDR)"
                default: return "encryption enabled 0x\(Hex.encode([rawValue]))"
                }
            }
        }

        /// Status: 0x00 when the change took place.
        public var status: HCIStatus
        /// Connection_Handle.
        public var connectionHandle: UInt16
        /// Encryption_Enabled: the connection's encryption now.
        public var encryptionEnabled: EncryptionEnabled

        /// A value from its fields.
        public init(status: HCIStatus = .success, connectionHandle: UInt16, encryptionEnabled: EncryptionEnabled) {
            self.status = status
            self.connectionHandle = connectionHandle
            self.encryptionEnabled = encryptionEnabled
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(connectionHandle: 0, encryptionEnabled: .off) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&status, "Status")
            try coder.code(&connectionHandle, "Connection_Handle", format: .hex)
            try coder.code(&encryptionEnabled, "Encryption_Enabled")
        }
    }

    /// HCI_Encryption_Change [v2], event 0x59 (Core v5.4, Vol 4, Part E, 7.7.8): the v1 event's
    /// parameters followed by Encryption_Key_Size (1, in octets).
    @dynamicMemberLookup
    public struct EncryptionChangeV2: HCIEventParameters {
        /// The event code this type decodes.
        public static var eventCode: HCIEventCode { .encryptionChangeV2 }

        /// Status, Connection_Handle and Encryption_Enabled, laid out as in v1.
        public var change: EncryptionChange
        /// Encryption_Key_Size: the encryption key size in octets (at most 16).
        public var encryptionKeySize: UInt8

        /// A value from its fields.
        public init(change: EncryptionChange, encryptionKeySize: UInt8) {
            self.change = change
            self.encryptionKeySize = encryptionKeySize
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(change: EncryptionChange(), encryptionKeySize: 0) }

        /// The v1 fields, read and written in place (`event.connectionHandle`).
        public subscript<T>(dynamicMember keyPath: WritableKeyPath<EncryptionChange, T>) -> T {
            get { change[keyPath: keyPath] }
            set { change[keyPath: keyPath] = newValue }
        }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try change.layout(&coder)
            try coder.code(&encryptionKeySize, "Encryption_Key_Size")
        }
    }
}
