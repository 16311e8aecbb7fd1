/// What a server keeps about a bonded client between connections (Core v5.4, Vol 3, Part G,
/// 2.5.2, 3.3.3.3 and 7.2: CCCD values, Client Supported Features and change-awareness are
/// "persistent across connections" for clients with a trusted relationship).
///
/// The server does not store it: read ``GATTServerConnection/record`` when a bonded client
/// disconnects, keep it with the bond, and pass it back in ``GATTConnectionOptions/record`` when
/// the client reconnects.
public struct GATTClientRecord: Sendable, Hashable, Codable {
    /// The CCCD values, by descriptor handle (zero values are left out).
    public var clientConfigurations: [UInt16: UInt16]
    /// The Client Supported Features value the client wrote (Part G, 7.2).
    public var clientSupportedFeatures: [UInt8]
    /// Whether the client was change-aware at the end of the connection (Part G, 2.5.2.1).
    public var isChangeAware: Bool
    /// The Database Hash of the database served at the end of the connection, least significant
    /// octet first, to tell on reconnection whether the database changed meanwhile.
    public var databaseHash: [UInt8]
    /// The last SignCounter accepted from the client in a signed write, if any (Part C, 10.4.2:
    /// a counter used before is refused).
    public var lastSignCounter: UInt32?

    /// A record with the given contents; empty by default.
    public init(clientConfigurations: [UInt16: UInt16] = [:], clientSupportedFeatures: [UInt8] = [],
                isChangeAware: Bool = true, databaseHash: [UInt8] = [], lastSignCounter: UInt32? = nil) {
        self.clientConfigurations = clientConfigurations
        self.clientSupportedFeatures = clientSupportedFeatures
        self.isChangeAware = isChangeAware
        self.databaseHash = databaseHash
        self.lastSignCounter = lastSignCounter
    }
}

/// How a connection starts: what the application knows about the peer when it attaches the
/// connection to a ``GATTServer``.
public struct GATTConnectionOptions: Sendable, Hashable {
    /// Whether an LTK or STK exists for the peer, a trusted relationship (bond): an access that
    /// needs encryption on an unencrypted link then fails with Insufficient Encryption rather than
    /// Insufficient Authentication (Core v5.4, Vol 3, Part C, 10.3.1).
    public var isBonded: Bool
    /// The state kept from the bonded client's previous connection, if any.
    public var record: GATTClientRecord?
    /// The peer's CSRK, which makes the server accept its signed writes (Part C, 10.4.2); without
    /// one they are ignored.
    public var signingKey: GATTSigningKey?

    /// Options; by default the peer is not bonded and has no record and no signing key.
    public init(isBonded: Bool = false, record: GATTClientRecord? = nil, signingKey: GATTSigningKey? = nil) {
        self.isBonded = isBonded
        self.record = record
        self.signingKey = signingKey
    }
}
