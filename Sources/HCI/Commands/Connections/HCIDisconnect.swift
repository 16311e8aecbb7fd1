/// HCI_Disconnect, opcode 0x0406 (Core v5.4, Vol 4, Part E, 7.1.6): ends a connection. Answered
/// by Command Status; the outcome is an HCI_Disconnection_Complete event.
///
/// Parameters: Connection_Handle (2), Reason (1: 0x05, 0x13, 0x14, 0x15, 0x1A, 0x29 or 0x3B).
public struct HCIDisconnect: HCICommand {
    /// Only Status, in Command Status; the outcome comes in a later event.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x0406.
    public static var opcode: HCIOpcode { .disconnect }
    /// Command Status answers the command; the outcome comes in a later event.
    public static var completion: HCICommandCompletion { .commandStatus }

    /// Connection_Handle.
    public var connectionHandle: UInt16
    /// Reason sent to the peer, usually 0x13 Remote User Terminated Connection.
    public var reason: HCIStatus

    /// The command with these parameters.
    public init(connectionHandle: UInt16, reason: HCIStatus = .remoteUserTerminatedConnection) {
        self.connectionHandle = connectionHandle
        self.reason = reason
    }

    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(connectionHandle: 0, reason: .success) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&connectionHandle, "Connection_Handle", format: .hex)
        try coder.code(&reason, "Reason")
    }
}
