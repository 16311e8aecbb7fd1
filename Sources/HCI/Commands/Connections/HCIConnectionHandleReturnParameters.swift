/// The return parameters Status (1) and Connection_Handle (2), shared by the commands that
/// name a connection and return nothing else: HCI_LE_Set_Data_Length (7.8.33) and
/// HCI_LE_Long_Term_Key_Request_Reply (7.8.25) (Core v5.4, Vol 4, Part E).
public struct HCIConnectionHandleReturnParameters: HCIReturnParameters {
    /// Status.
    public var status: HCIStatus
    /// Connection_Handle: the connection the command was for.
    public var connectionHandle: UInt16

    /// Return parameters from their values.
    public init(status: HCIStatus = .success, connectionHandle: UInt16) {
        self.status = status
        self.connectionHandle = connectionHandle
    }

    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(connectionHandle: 0) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&status, "Status")
        try coder.code(&connectionHandle, "Connection_Handle", format: .hex)
    }
}
