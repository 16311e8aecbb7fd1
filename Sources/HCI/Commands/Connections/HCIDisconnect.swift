/// HCI_Disconnect, opcode 0x0406 (Core v5.4, Vol 4, Part E, 7.1.6): ends a connection. Answered
/// by Command Status; the outcome is an HCI_Disconnection_Complete event.
///
/// Parameters: Connection_Handle (2), Reason (1: 0x05, 0x13, 0x14, 0x15, 0x1A, 0x29 or 0x3B).
public struct HCIDisconnect: HCICommand {
    public typealias ReturnParameters = HCIStatusReturnParameters
    public static var opcode: HCIOpcode { .disconnect }
    public static var completion: HCICommandCompletion { .commandStatus }

    /// Connection_Handle.
    public var connectionHandle: UInt16
    /// Reason sent to the peer, usually 0x13 Remote User Terminated Connection.
    public var reason: HCIStatus

    public init(connectionHandle: UInt16, reason: HCIStatus = .remoteUserTerminatedConnection) {
        self.connectionHandle = connectionHandle
        self.reason = reason
    }

    public init() { self.init(connectionHandle: 0, reason: .success) }

    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&connectionHandle, "Connection_Handle", format: .hex)
        try coder.code(&reason, "Reason")
    }
}
