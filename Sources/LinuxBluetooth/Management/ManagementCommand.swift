/// The management commands LinuxBLE sends (Linux, BlueZ doc/mgmt-api.txt): their codes and
/// parameters. Settings commands take one octet, 0x00 off or 0x01 on, and answer with the
/// controller's Current Settings; the pairing replies take the peer's address and type.
public enum ManagementCommand: Hashable, Sendable {
    /// Read Controller Information (0x0004): address, version, settings, names.
    case readControllerInformation
    /// Set Powered (0x0005).
    case setPowered(Bool)
    /// Set Low Energy (0x000D): LE on a dual-mode controller (the kernel's legacy HCIDEVUP leaves it off).
    case setLowEnergy(Bool)
    /// User Confirmation Reply (0x001C): go on pairing with the peer (Address, Address_Type).
    case userConfirmationReply(ManagementAddress)
    /// User Confirmation Negative Reply (0x001D): refuse pairing with the peer.
    case userConfirmationNegativeReply(ManagementAddress)

    /// The command code.
    public var code: UInt16 {
        switch self {
        case .readControllerInformation: return 0x0004
        case .setPowered: return 0x0005
        case .setLowEnergy: return 0x000D
        case .userConfirmationReply: return 0x001C
        case .userConfirmationNegativeReply: return 0x001D
        }
    }

    /// The command's parameters.
    public var parameters: [UInt8] {
        switch self {
        case .readControllerInformation: return []
        case .setPowered(let on), .setLowEnergy(let on): return [on ? 0x01 : 0x00]
        case .userConfirmationReply(let peer), .userConfirmationNegativeReply(let peer): return peer.encoded
        }
    }

    /// The packet for controller `index`.
    public func packet(for index: UInt16) -> ManagementPacket {
        ManagementPacket(code: code, controllerIndex: index, parameters: parameters)
    }

    /// "Set Powered on", ...
    public var name: String {
        switch self {
        case .readControllerInformation: return "Read Controller Information"
        case .setPowered(let on): return "Set Powered \(on ? "on" : "off")"
        case .setLowEnergy(let on): return "Set Low Energy \(on ? "on" : "off")"
        case .userConfirmationReply(let peer): return "User Confirmation Reply for \(peer)"
        case .userConfirmationNegativeReply(let peer): return "User Confirmation Negative Reply for \(peer)"
        }
    }
}
