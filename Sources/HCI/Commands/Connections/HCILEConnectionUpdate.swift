/// HCI_LE_Connection_Update, opcode 0x2013 (Core v5.4, Vol 4, Part E, 7.8.18): asks for new
/// parameters on a connection. Answered by Command Status; the outcome is an
/// HCI_LE_Connection_Update_Complete event.
///
/// Parameters: Connection_Handle (2), then ``LEConnectionParameters`` (12). 14 octets.
public struct HCILEConnectionUpdate: HCICommand {
    /// Only Status, in Command Status; the outcome comes in a later event.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x2013.
    public static var opcode: HCIOpcode { .leConnectionUpdate }
    /// Command Status answers the command; the outcome comes in a later event.
    public static var completion: HCICommandCompletion { .commandStatus }

    /// Connection_Handle.
    public var connectionHandle: UInt16
    /// The parameters wanted.
    public var connectionParameters: LEConnectionParameters

    /// The command with these parameters.
    public init(connectionHandle: UInt16, connectionParameters: LEConnectionParameters) {
        self.connectionHandle = connectionHandle
        self.connectionParameters = connectionParameters
    }

    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(connectionHandle: 0, connectionParameters: LEConnectionParameters()) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&connectionHandle, "Connection_Handle", format: .hex)
        try connectionParameters.layout(&coder)
    }
}
