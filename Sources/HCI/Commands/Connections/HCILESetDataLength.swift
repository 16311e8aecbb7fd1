/// HCI_LE_Set_Data_Length, opcode 0x2022 (Core v5.4, Vol 4, Part E, 7.8.33): suggests the
/// largest LL data PDU payload and air time for a connection; an HCI_LE_Data_Length_Change
/// event follows when they change.
///
/// Parameters: Connection_Handle (2), TX_Octets (2, 27...251), TX_Time (2, µs, 328...17040).
public struct HCILESetDataLength: HCICommand {
    /// Command Complete returns Status and Connection_Handle.
    public typealias ReturnParameters = HCIConnectionHandleReturnParameters
    /// Opcode 0x2022.
    public static var opcode: HCIOpcode { .leSetDataLength }

    /// Connection_Handle.
    public var connectionHandle: UInt16
    /// TX_Octets: the payload size wanted, in octets.
    public var txOctets: UInt16
    /// TX_Time: the air time wanted for one PDU.
    public var txTime: HCIDuration<HCITimeUnit1us>

    /// The command with these parameters.
    public init(connectionHandle: UInt16, txOctets: UInt16, txTime: HCIDuration<HCITimeUnit1us>) {
        self.connectionHandle = connectionHandle
        self.txOctets = txOctets
        self.txTime = txTime
    }

    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(connectionHandle: 0, txOctets: 0, txTime: .init(rawValue: 0)) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&connectionHandle, "Connection_Handle", format: .hex)
        try coder.code(&txOctets, "TX_Octets")
        try coder.code(&txTime, "TX_Time")
    }
}
