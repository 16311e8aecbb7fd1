extension LEMetaEvent {
    /// HCI_LE_Long_Term_Key_Request, subevent 0x05 (Core v5.4, Vol 4, Part E, 7.7.65.5): the
    /// central started encryption and this peripheral's controller asks the host for the key
    /// (answered with HCI_LE_Long_Term_Key_Request_Reply or its negative reply).
    ///
    /// Parameters after Subevent_Code: Connection_Handle (2), Random_Number (8),
    /// Encrypted_Diversifier (2). Both are zero for LE Secure Connections keys.
    public struct LongTermKeyRequest: LEMetaSubeventParameters {
        /// The LE Meta subevent code this type decodes.
        public static var subeventCode: LEMetaSubeventCode { .longTermKeyRequest }

        /// Connection_Handle.
        public var connectionHandle: UInt16
        /// Random_Number (Rand) that identifies a legacy-pairing LTK.
        public var randomNumber: UInt64
        /// Encrypted_Diversifier (EDIV) that identifies a legacy-pairing LTK.
        public var encryptedDiversifier: UInt16

        /// A value from its fields.
        public init(connectionHandle: UInt16, randomNumber: UInt64, encryptedDiversifier: UInt16) {
            self.connectionHandle = connectionHandle
            self.randomNumber = randomNumber
            self.encryptedDiversifier = encryptedDiversifier
        }

        /// Every field zero or empty: the value decoding starts from.
        public init() { self.init(connectionHandle: 0, randomNumber: 0, encryptedDiversifier: 0) }

        /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
        public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
            try coder.code(&connectionHandle, "Connection_Handle", format: .hex)
            try coder.code(&randomNumber, "Random_Number", format: .hex)
            try coder.code(&encryptedDiversifier, "Encrypted_Diversifier", format: .hex)
        }
    }
}
