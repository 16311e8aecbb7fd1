import BLECore

/// A management event from the kernel (Linux, BlueZ doc/mgmt-api.txt, "Events"): the answers to
/// commands, the changes LinuxBLE follows and the pairing questions it answers; any other event
/// is kept raw.
public enum ManagementEvent: Hashable, Sendable {
    /// Command Complete (0x0001): Command Opcode (2), Status (1), Return Parameters.
    case commandComplete(command: UInt16, status: ManagementStatus, returnParameters: [UInt8])
    /// Command Status (0x0002): Command Opcode (2), Status (1); the command failed or is pending.
    case commandStatus(command: UInt16, status: ManagementStatus)
    /// New Settings (0x0006): the controller's Current Settings changed.
    case newSettings(ManagementSettings)
    /// User Confirmation Request (0x000F): the kernel's SMP asks user space whether to go on
    /// pairing with a peer. Answered with User Confirmation Reply or Negative Reply.
    case userConfirmationRequest(ManagementUserConfirmationRequest)
    /// Any other event: its code and parameters.
    case other(code: UInt16, parameters: [UInt8])

    /// Decodes the event in `packet`.
    ///
    /// - Throws: ``BLEDecodingError`` when a known event's parameters are short or too long.
    public init(_ packet: ManagementPacket) throws(BLEDecodingError) {
        var r = ByteReader(packet.parameters[...])
        switch packet.code {
        case 0x0001:
            let command = try r.readUInt16("Command Opcode")
            let status = ManagementStatus(rawValue: try r.readUInt8("Status"))
            self = .commandComplete(command: command, status: status, returnParameters: r.readRemaining())
        case 0x0002:
            let command = try r.readUInt16("Command Opcode")
            let status = ManagementStatus(rawValue: try r.readUInt8("Status"))
            try r.expectEnd()
            self = .commandStatus(command: command, status: status)
        case 0x0006:
            let settings = ManagementSettings(rawValue: try r.readUInt32("Current Settings"))
            try r.expectEnd()
            self = .newSettings(settings)
        case 0x000F:
            self = .userConfirmationRequest(try ManagementUserConfirmationRequest(decoding: &r))
            try r.expectEnd()
        default:
            self = .other(code: packet.code, parameters: packet.parameters)
        }
    }
}

/// A management command's status (Linux, BlueZ doc/mgmt-api.txt, "Error Codes"); unknown values
/// are kept.
public struct ManagementStatus: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    public static let success = ManagementStatus(rawValue: 0x00)
    public static let busy = ManagementStatus(rawValue: 0x0A)
    public static let rejected = ManagementStatus(rawValue: 0x0B)
    public static let notSupported = ManagementStatus(rawValue: 0x0C)
    public static let invalidParameters = ManagementStatus(rawValue: 0x0D)
    public static let notPowered = ManagementStatus(rawValue: 0x0F)
    public static let invalidIndex = ManagementStatus(rawValue: 0x11)
    public static let rfkilled = ManagementStatus(rawValue: 0x12)
    public static let permissionDenied = ManagementStatus(rawValue: 0x14)

    private static let names: [UInt8: String] = [
        0x00: "Success", 0x01: "Unknown Command", 0x02: "Not Connected", 0x03: "Failed", 0x04: "Connect Failed",
        0x05: "Authentication Failed", 0x06: "Not Paired", 0x07: "No Resources", 0x08: "Timeout",
        0x09: "Already Connected", 0x0A: "Busy", 0x0B: "Rejected", 0x0C: "Not Supported",
        0x0D: "Invalid Parameters", 0x0E: "Disconnected", 0x0F: "Not Powered", 0x10: "Cancelled",
        0x11: "Invalid Index", 0x12: "RFKilled", 0x13: "Already Paired", 0x14: "Permission Denied",
    ]

    /// "Busy (0x0a)".
    public var description: String {
        "\(Self.names[rawValue] ?? "Unknown Status") (0x\(Hex.encode(CollectionOfOne(rawValue))))"
    }
}
