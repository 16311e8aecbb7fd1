import ATT

/// What a ``GATTServer`` keeps for one connection (one ATT bearer), and nothing more: the
/// values Core v5.4, Vol 3, Part G gives each client, and the bookkeeping of Robust Caching.
/// Every collection in it is bounded by the database (CCCDs), by the prepare queue's limit, or
/// by 512 octets (Client Supported Features).
struct GATTConnectionState: Sendable {
    /// The engine of the bearer.
    let engine: ATTEngine
    /// The peer, as handlers see it.
    let peer: GATTPeer
    /// Whether an LTK or STK exists for the peer (Part C, 10.3.1).
    var isBonded: Bool
    /// The peer's CSRK, if the application gave one.
    var signingKey: GATTSigningKey?
    /// The last SignCounter accepted in a signed write (Part C, 10.4.2).
    var lastSignCounter: UInt32?
    /// CCCD values by descriptor handle; zero values are removed (3.3.3.3: the default is 0x0000).
    var configurations: [UInt16: UInt16] = [:]
    /// The Client Supported Features value (7.2); empty is all bits zero.
    var clientSupportedFeatures: [UInt8] = []
    /// Whether the server considers the client change-aware (2.5.2.1).
    var isChangeAware = true
    /// Whether Database Out Of Sync was sent since the client became change-unaware.
    var outOfSyncSent = false
    /// Whether the client read the Database Hash since it became change-unaware.
    var hashReadWhileUnaware = false
    /// The database generation the client became change-unaware at; a Service Changed
    /// confirmation makes it change-aware only if no later change happened (2.5.2.1).
    var unawareSince: UInt64 = 0
    /// The prepare queue (Part F, 3.4.6).
    var prepareQueue: GATTPrepareQueue
    /// The client's Service Changed confirmation, as the engine received it.
    let serviceChangedConfirmation = GATTServiceChangedConfirmation()

    init(engine: ATTEngine, peer: GATTPeer, options: GATTConnectionOptions, limit: GATTPrepareQueueLimit) {
        self.engine = engine
        self.peer = peer
        self.isBonded = options.isBonded
        self.signingKey = options.signingKey
        self.prepareQueue = GATTPrepareQueue(limit: limit)
    }

    /// Client Supported Features bit 0: the client uses Robust Caching (7.2, Table 7.6).
    var usesRobustCaching: Bool { (clientSupportedFeatures.first ?? 0) & 0x01 != 0 }
    /// Client Supported Features bit 2: the client receives ATT_MULTIPLE_HANDLE_VALUE_NTF.
    var receivesMultipleNotifications: Bool { (clientSupportedFeatures.first ?? 0) & 0x04 != 0 }
    /// Whether notifications and indications other than Service Changed must be withheld: the
    /// client uses Robust Caching and is change-unaware (2.5.2.1).
    var isWithheld: Bool { usesRobustCaching && !isChangeAware }

    /// The configuration of the CCCD at `handle`.
    func configuration(_ handle: UInt16) -> GATTClientCharacteristicConfiguration {
        GATTClientCharacteristicConfiguration(rawValue: configurations[handle] ?? 0)
    }

    /// Sets the CCCD at `handle`, removing zero values.
    mutating func setConfiguration(_ value: UInt16, at handle: UInt16) {
        if value == 0 { configurations.removeValue(forKey: handle) } else { configurations[handle] = value }
    }

    /// Makes the client change-unaware at database generation `generation`.
    mutating func becomeUnaware(generation: UInt64) {
        isChangeAware = false
        outOfSyncSent = false
        hashReadWhileUnaware = false
        unawareSince = generation
    }

    /// Makes a change-unaware client change-aware because it confirmed the Service Changed
    /// indication sent at database generation `confirmed`: only when that is the change it became
    /// unaware at and no later change came (`current`) (2.5.2.1).
    ///
    /// - Returns: whether the state changed.
    mutating func confirmServiceChanged(_ confirmed: UInt64, current: UInt64) -> Bool {
        guard !isChangeAware, confirmed == unawareSince, confirmed == current else { return false }
        becomeAware()
        return true
    }

    /// Makes the client change-aware.
    mutating func becomeAware() {
        isChangeAware = true
        outOfSyncSent = false
        hashReadWhileUnaware = false
    }
}
