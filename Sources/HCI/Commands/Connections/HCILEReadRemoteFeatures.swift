/// HCI_LE_Read_Remote_Features, opcode 0x2016 (Core v5.4, Vol 4, Part E, 7.8.21): asks the link
/// layer for the features of the peer on a connection.
///
/// Layout: Connection_Handle (2). The controller answers with Command Status; the features
/// follow in HCI_LE_Read_Remote_Features_Complete (7.7.65.4).
public struct HCILEReadRemoteFeatures: HCICommand {
    /// Command Status carries Status alone.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x2016.
    public static var opcode: HCIOpcode { .leReadRemoteFeatures }
    /// Command Status, then HCI_LE_Read_Remote_Features_Complete.
    public static var completion: HCICommandCompletion { .commandStatus }

    /// Connection_Handle: the connection, 0x0000...0x0EFF.
    public var connectionHandle: UInt16

    /// The command for `connectionHandle`.
    public init(connectionHandle: UInt16) { self.connectionHandle = connectionHandle }
    /// Every field zero: the value decoding starts from.
    public init() { self.init(connectionHandle: 0) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&connectionHandle, "Connection_Handle", format: .hex)
    }
}
