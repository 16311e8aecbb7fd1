import HCI

/// What an LE controller can do, read once when the host starts using it, and the
/// ``LECommandFamily`` chosen from it for every later advertising and scanning command.
///
/// ``read(from:)`` sends, in order: HCI_Read_Local_Supported_Commands (Vol 4, Part E, 7.4.2),
/// HCI_LE_Read_Local_Supported_Features (7.8.3), HCI_LE_Read_Buffer_Size [v1] (7.8.2), and, when
/// the family is extended, HCI_LE_Read_Maximum_Advertising_Data_Length (7.8.57).
///
/// ```swift
/// let capabilities = try await LEControllerCapabilities.read(from: flow)
/// capabilities.commandFamily                 // .extended on a Bluetooth 5 controller
/// capabilities.maximumAdvertisingDataLength  // 31 for legacy, up to 1650 for extended
/// ```
public struct LEControllerCapabilities: Hashable, Sendable, CustomStringConvertible {
    /// LE_Features, page 0 (Vol 6, Part B, 4.6).
    public var leFeatures: LEFeatures
    /// Supported_Commands (Vol 4, Part E, 6.27).
    public var supportedCommands: HCISupportedCommands
    /// LE_ACL_Data_Packet_Length, in octets: the largest LE ACL data payload; 0 when LE shares
    /// the BR/EDR buffers (then HCI_Read_Buffer_Size gives them).
    public var leACLDataPacketLength: UInt16
    /// Total_Num_LE_ACL_Data_Packets: how many LE ACL data packets the controller holds.
    public var totalNumLEACLDataPackets: UInt8
    /// The largest advertising data or scan response the host may set, in octets: 31 with the
    /// legacy commands; Max_Advertising_Data_Length (31...1650) with the extended ones.
    public var maximumAdvertisingDataLength: Int
    /// The command family chosen by ``LECommandFamily/choose(features:commands:)``.
    public var commandFamily: LECommandFamily

    /// Capabilities from values already read. The family is chosen from `leFeatures` and
    /// `supportedCommands`; with the legacy family the maximum data length is 31 whatever
    /// `maximumAdvertisingDataLength` says.
    public init(leFeatures: LEFeatures, supportedCommands: HCISupportedCommands,
                leACLDataPacketLength: UInt16 = 0, totalNumLEACLDataPackets: UInt8 = 0,
                maximumAdvertisingDataLength: Int = AdvertisingData.legacyMaximumLength) {
        self.leFeatures = leFeatures
        self.supportedCommands = supportedCommands
        self.leACLDataPacketLength = leACLDataPacketLength
        self.totalNumLEACLDataPackets = totalNumLEACLDataPackets
        let family = LECommandFamily.choose(features: leFeatures, commands: supportedCommands)
        self.commandFamily = family
        self.maximumAdvertisingDataLength = family == .legacy
            ? AdvertisingData.legacyMaximumLength
            : min(max(maximumAdvertisingDataLength, AdvertisingData.legacyMaximumLength), AdvertisingData.extendedMaximumLength)
    }

    /// Reads the capabilities of the controller behind `flow`: HCI_Read_Local_Supported_Commands,
    /// HCI_LE_Read_Local_Supported_Features, HCI_LE_Read_Buffer_Size and, for the extended family,
    /// HCI_LE_Read_Maximum_Advertising_Data_Length (31 octets when the controller answers it with
    /// Unknown HCI Command).
    ///
    /// - Throws: the ``HCICommandError`` of the first command that fails otherwise.
    public static func read(from flow: HCICommandFlow) async throws(HCICommandError) -> LEControllerCapabilities {
        let commands = try await flow.send(HCIReadLocalSupportedCommands()).supportedCommands
        let features = try await flow.send(HCILEReadLocalSupportedFeatures()).leFeatures
        let buffer = try await flow.send(HCILEReadBufferSize())
        var capabilities = LEControllerCapabilities(leFeatures: features, supportedCommands: commands,
                                                    leACLDataPacketLength: buffer.leACLDataPacketLength,
                                                    totalNumLEACLDataPackets: buffer.totalNumLEACLDataPackets)
        if capabilities.commandFamily == .extended {
            let maximum: Int
            do {
                maximum = Int(try await flow.send(HCILEReadMaximumAdvertisingDataLength()).maxAdvertisingDataLength)
            } catch .status(.unknownHCICommand, _) {
                // A controller that marks the extended advertising commands supported yet does not
                // know this one (BlueZ 5.66's emulated controllers): advertise within 31 octets,
                // the length every controller takes, rather than not at all.
                maximum = AdvertisingData.legacyMaximumLength
            }
            capabilities = LEControllerCapabilities(leFeatures: features, supportedCommands: commands,
                                                    leACLDataPacketLength: buffer.leACLDataPacketLength,
                                                    totalNumLEACLDataPackets: buffer.totalNumLEACLDataPackets,
                                                    maximumAdvertisingDataLength: maximum)
        }
        return capabilities
    }

    /// These capabilities with the legacy family forced and the data length capped at 31
    /// octets: for a controller the kernel drives with the legacy commands although its bits
    /// say extended (Linux quirks such as HCI_QUIRK_BROKEN_EXT_SCAN), so that kernel mode keeps
    /// to the kernel's family.
    public func withLegacyCommands() -> LEControllerCapabilities {
        var copy = self
        copy.commandFamily = .legacy
        copy.maximumAdvertisingDataLength = AdvertisingData.legacyMaximumLength
        return copy
    }

    /// The family, the maximum data length and the LE ACL buffers on one line.
    public var description: String {
        "\(commandFamily) advertising and scanning, advertising data up to \(maximumAdvertisingDataLength) octets, "
            + "LE ACL \(totalNumLEACLDataPackets) × \(leACLDataPacketLength) octets"
    }
}
