import HCI

/// Which LE advertising and scanning commands a host uses on a controller: the legacy ones
/// (LE Set Advertising Parameters, LE Set Scan Enable, ...) or the extended ones (LE Set
/// Extended Advertising Parameters, LE Set Extended Scan Enable, ...). Chosen once per
/// controller and never mixed: a controller that has seen one family may answer the other with
/// Command Disallowed (Core v5.4, Vol 4, Part E, 3.1.1 "Legacy and extended advertising").
public enum LECommandFamily: String, Hashable, Sendable, CustomStringConvertible {
    /// LE Set Advertising Parameters/Data/Enable, LE Set Scan Parameters/Enable
    /// (Vol 4, Part E, 7.8.5 to 7.8.11); advertising data and scan responses of up to 31 octets.
    case legacy
    /// LE Set Extended Advertising Parameters/Data/Enable, LE Set Extended Scan
    /// Parameters/Enable (Vol 4, Part E, 7.8.53 to 7.8.65); data up to the controller's
    /// Max_Advertising_Data_Length.
    case extended

    /// The extended commands the host needs before it chooses ``extended``: every one of them
    /// must be marked supported in Supported_Commands.
    public static let extendedCommands: [HCIOpcode] = [
        .leSetExtendedAdvertisingParameters, .leSetExtendedAdvertisingData, .leSetExtendedScanResponseData,
        .leSetExtendedAdvertisingEnable, .leReadMaximumAdvertisingDataLength,
        .leSetExtendedScanParameters, .leSetExtendedScanEnable,
    ]

    /// The family for a controller with `features` and `commands`: ``extended`` when the LE
    /// Extended Advertising feature (bit 12, Vol 6, Part B, 4.6) is set and every command of
    /// ``extendedCommands`` is supported; ``legacy`` otherwise.
    ///
    /// Linux makes the same choice for its own commands (extended scanning when Supported_Commands
    /// octet 37 bits 5 and 6 are set, extended advertising when the feature bit is set), so in
    /// kernel mode this family matches the kernel's on any controller that is consistent.
    public static func choose(features: LEFeatures, commands: HCISupportedCommands) -> LECommandFamily {
        guard features.contains(.leExtendedAdvertising) else { return .legacy }
        let all = extendedCommands.allSatisfy { commands.supports($0) == true }
        return all ? .extended : .legacy
    }

    /// "legacy" or "extended".
    public var description: String { rawValue }
}
