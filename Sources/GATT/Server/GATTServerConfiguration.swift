/// How a ``GATTServer`` behaves: the values of the services it adds and the bounds it keeps.
///
/// ```swift
/// var configuration = GATTServerConfiguration(deviceName: "Thermometer", appearance: 0x0300)
/// configuration.prepareQueueLimit = GATTPrepareQueueLimit(maximumEntries: 32, maximumOctets: 2048)
/// let server = try GATTServer(database: database, configuration: configuration)
/// ```
public struct GATTServerConfiguration: Sendable, Hashable {
    /// The Device Name characteristic value of the GAP service the server adds when the database
    /// has none (Core v5.4, Vol 3, Part C, 12.1): UTF-8, at most 248 octets (longer text is cut at
    /// a character boundary).
    public var deviceName: String
    /// The Appearance characteristic value of the GAP service the server adds (Part C, 12.2;
    /// Assigned Numbers, 2.6): 0x0000 is "Unknown".
    public var appearance: UInt16
    /// The bound of each connection's prepare queue (Part F, 3.4.6.1: "A server may limit the
    /// number of prepared writes that it can queue").
    public var prepareQueueLimit: GATTPrepareQueueLimit
    /// How many ``GATTServerEvent``s ``GATTServer/events`` keeps for a slow or absent reader;
    /// older events are dropped first.
    public var eventBufferSize: Int
    /// Where the GAP and GATT services the server adds begin: nil to put each into the first
    /// free handle range that fits (a gap, or after the database's last handle), and keep it
    /// there across ``GATTServer/replaceDatabase(_:)`` while those handles stay free; or a fixed
    /// first handle, such as 0xFFF1, for both one after the other, so that Service Changed never
    /// moves whatever the databases served (Core v5.4, Vol 3, Part G, 7.1).
    public var serverServicesHandle: UInt16?
    /// Where the GAP and GATT services the server adds go, one after the other, when they have
    /// no previous range to keep (see ``serverServicesHandle``'s nil) and the database leaves
    /// these handles free; otherwise each goes into the first free range that fits, as without
    /// it. Such as ``topServerServicesHandle``: a database that grows from 0x0001 never moves
    /// them, and one that needs those handles still gets them elsewhere. Ignored with a fixed
    /// ``serverServicesHandle``.
    public var preferredServerServicesHandle: UInt16?

    /// How many handles the GAP and GATT services the server adds take together: 15 (GAP 5:
    /// its declaration, Device Name and Appearance, Part C, 12; GATT 10: its declaration,
    /// Service Changed with its Client Characteristic Configuration, Client Supported Features,
    /// Database Hash and Server Supported Features, Part G, 7).
    public static let serverServicesHandleCount = GATTServedDatabase.gapServiceHandleCount + GATTServedDatabase.gattServiceHandleCount

    /// The first handle that puts the server's services at the very end of the handle space,
    /// 0xFFF1...0xFFFF (as ``serverServicesHandle`` or ``preferredServerServicesHandle``), where
    /// a database built from 0x0001 does not reach them: Service Changed does not move, and a
    /// change's range, which takes in the GATT service (Part G, 7.1), covers only the services
    /// after the change.
    public static let topServerServicesHandle = UInt16(0x1_0000 - serverServicesHandleCount)

    /// A configuration; by default the device is named "LinuxBLE", its appearance is Unknown,
    /// each prepare queue holds 64 entries and 4096 octets, 256 events are kept, and the server's
    /// services go into the first free handles that fit.
    public init(deviceName: String = "LinuxBLE", appearance: UInt16 = 0x0000,
                prepareQueueLimit: GATTPrepareQueueLimit = .standard, eventBufferSize: Int = 256,
                serverServicesHandle: UInt16? = nil, preferredServerServicesHandle: UInt16? = nil) {
        self.deviceName = deviceName
        self.appearance = appearance
        self.prepareQueueLimit = prepareQueueLimit
        self.eventBufferSize = eventBufferSize
        self.serverServicesHandle = serverServicesHandle
        self.preferredServerServicesHandle = preferredServerServicesHandle
    }

    /// The longest Device Name value, in octets (Part C, 12.1).
    public static let maximumDeviceNameLength = 248

    /// ``deviceName`` as UTF-8, cut to at most 248 octets without splitting a character.
    var deviceNameValue: [UInt8] {
        var octets: [UInt8] = []
        for character in deviceName {
            let utf8 = Array(String(character).utf8)
            guard octets.count + utf8.count <= Self.maximumDeviceNameLength else { break }
            octets += utf8
        }
        return octets
    }
}

/// The bound of one connection's prepare queue (Core v5.4, Vol 3, Part F, 3.4.6.1): a Prepare
/// Write Request that would pass either limit is answered with Prepare Queue Full (0x09) and is
/// not queued.
public struct GATTPrepareQueueLimit: Sendable, Hashable, CustomStringConvertible {
    /// The most prepared writes queued at once.
    public var maximumEntries: Int
    /// The most Part Attribute Value octets queued at once, over all entries.
    public var maximumOctets: Int

    /// A limit of `maximumEntries` writes and `maximumOctets` value octets (negative values act as 0).
    public init(maximumEntries: Int, maximumOctets: Int) {
        self.maximumEntries = max(0, maximumEntries)
        self.maximumOctets = max(0, maximumOctets)
    }

    /// 64 entries and 4096 octets: a 512-octet value written in 18-octet parts (ATT_MTU 23)
    /// takes 29 entries, so two such long writes, or eight at a large MTU, fit at once.
    public static let standard = GATTPrepareQueueLimit(maximumEntries: 64, maximumOctets: 4096)

    /// "64 entries, 4096 octets".
    public var description: String { "\(maximumEntries) entries, \(maximumOctets) octets" }
}
