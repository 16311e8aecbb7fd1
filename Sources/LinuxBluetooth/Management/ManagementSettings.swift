/// A controller's settings as the management interface reports them (Linux, BlueZ
/// doc/mgmt-api.txt, "Read Controller Information Command": Current_Settings bits).
public struct ManagementSettings: OptionSet, Hashable, Sendable, CustomStringConvertible {
    public var rawValue: UInt32
    public init(rawValue: UInt32) { self.rawValue = rawValue }

    public static let powered = ManagementSettings(rawValue: 1 << 0)
    public static let connectable = ManagementSettings(rawValue: 1 << 1)
    public static let fastConnectable = ManagementSettings(rawValue: 1 << 2)
    public static let discoverable = ManagementSettings(rawValue: 1 << 3)
    public static let bondable = ManagementSettings(rawValue: 1 << 4)
    public static let linkSecurity = ManagementSettings(rawValue: 1 << 5)
    public static let secureSimplePairing = ManagementSettings(rawValue: 1 << 6)
    public static let brEDR = ManagementSettings(rawValue: 1 << 7)
    public static let highSpeed = ManagementSettings(rawValue: 1 << 8)
    public static let lowEnergy = ManagementSettings(rawValue: 1 << 9)
    public static let advertising = ManagementSettings(rawValue: 1 << 10)
    public static let secureConnections = ManagementSettings(rawValue: 1 << 11)
    public static let debugKeys = ManagementSettings(rawValue: 1 << 12)
    public static let privacy = ManagementSettings(rawValue: 1 << 13)
    public static let controllerConfiguration = ManagementSettings(rawValue: 1 << 14)
    public static let staticAddress = ManagementSettings(rawValue: 1 << 15)

    private static let names: [String] = [
        "powered", "connectable", "fast-connectable", "discoverable", "bondable", "link-security", "ssp",
        "br/edr", "hs", "le", "advertising", "secure-conn", "debug-keys", "privacy", "configuration", "static-addr",
    ]

    /// The set bits by name, as btmgmt prints them: "powered bondable le"; other bits as "bit N".
    public var description: String {
        var words: [String] = []
        for bit in 0..<32 where rawValue & (1 << bit) != 0 {
            words.append(bit < Self.names.count ? Self.names[bit] : "bit \(bit)")
        }
        return words.isEmpty ? "none" : words.joined(separator: " ")
    }
}
