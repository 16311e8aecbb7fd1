import BLECore

/// HCI_LE_Long_Term_Key_Request_Reply, opcode 0x201A (Core v5.4, Vol 4, Part E, 7.8.25): the
/// peripheral's host answers HCI_LE_Long_Term_Key_Request with the key.
///
/// Parameters: Connection_Handle (2), Long_Term_Key (16, least significant octet first).
public struct HCILELongTermKeyRequestReply: HCICommand {
    /// Command Complete returns Status and Connection_Handle.
    public typealias ReturnParameters = HCIConnectionHandleReturnParameters
    /// Opcode 0x201A.
    public static var opcode: HCIOpcode { .leLongTermKeyRequestReply }

    /// Connection_Handle.
    public var connectionHandle: UInt16
    /// Long_Term_Key: 16 octets as they travel (least significant first).
    public var longTermKey: [UInt8]

    /// The command with these parameters.
    public init(connectionHandle: UInt16, longTermKey: [UInt8]) {
        self.connectionHandle = connectionHandle
        self.longTermKey = longTermKey
    }

    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(connectionHandle: 0, longTermKey: Array(repeating: 0, count: 16)) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&connectionHandle, "Connection_Handle", format: .hex)
        try coder.code(&longTermKey, count: 16, "Long_Term_Key")
    }
}
