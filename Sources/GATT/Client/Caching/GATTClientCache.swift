import BLECore
import Synchronization

/// Who a cached database belongs to: a peer identity the caller chooses, stable across
/// connections (for a bonded peer, its identity address; Core v5.4, Vol 3, Part G, 2.5.2).
///
/// A resolvable private address changes, so it makes a poor key; the identity address learnt
/// when bonding (SMP Identity Address Information) does not.
public struct GATTPeerIdentity: Hashable, Sendable, CustomStringConvertible {
    /// The identity as text, compared exactly.
    public let rawValue: String

    /// An identity named by `rawValue` (any text the caller keeps stable).
    public init(_ rawValue: String) { self.rawValue = rawValue }

    /// The identity of the device at `address`; `isRandom` tells a random static identity
    /// address from a public one with the same 48 bits.
    public init(address: BluetoothAddress, isRandom: Bool = false) {
        self.rawValue = (isRandom ? "random " : "public ") + address.description
    }

    /// The identity's text.
    public var description: String { rawValue }
}

/// What a client remembers of one peer's GATT database between connections (Core v5.4,
/// Vol 3, Part G, 2.5.2): the discovered tree and the Database Hash it was discovered under.
public struct GATTClientCacheEntry: Sendable, Hashable {
    /// The Database Hash read before the discovery (Part G, 7.3), 16 octets.
    public var databaseHash: [UInt8]
    /// The discovered services (``GATTClient/services``: the primary ones and those reached
    /// through includes), with their includes, characteristics and descriptors.
    public var services: [RemoteService]
    /// Whether, on a connection with a trusted relationship (a bond), the client wrote Client
    /// Supported Features and enabled Service Changed indications. Those values persist for a
    /// bonded client (Part G, 7.2; 3.3.3.3), so a later bonded connection need not write them.
    public var configuredForBond: Bool

    /// An entry for `services` discovered under `databaseHash`.
    public init(databaseHash: [UInt8], services: [RemoteService], configuredForBond: Bool = false) {
        self.databaseHash = databaseHash
        self.services = services
        self.configuredForBond = configuredForBond
    }
}

/// Where a ``GATTClient`` keeps discovered databases, keyed by peer identity (robust caching,
/// Core v5.4, Vol 3, Part G, 2.5.2). Implementations may persist entries; the client reads an
/// entry before discovery and stores one after.
public protocol GATTClientCache: Sendable {
    /// The entry kept for `peer`, if any.
    func entry(for peer: GATTPeerIdentity) async -> GATTClientCacheEntry?
    /// Keeps `entry` for `peer`, replacing any earlier one.
    func store(_ entry: GATTClientCacheEntry, for peer: GATTPeerIdentity) async
    /// Forgets the entry for `peer` (for example when the bond is removed).
    func removeEntry(for peer: GATTPeerIdentity) async
}

/// A ``GATTClientCache`` in memory, for one process's lifetime (and for tests). Thread-safe:
/// its entries sit under a `Mutex`.
public final class InMemoryGATTClientCache: GATTClientCache {
    private let entries = Mutex<[GATTPeerIdentity: GATTClientCacheEntry]>([:])

    /// An empty cache.
    public init() {}

    /// The entry kept for `peer`, if any.
    public func entry(for peer: GATTPeerIdentity) async -> GATTClientCacheEntry? {
        entries.withLock { $0[peer] }
    }

    /// Keeps `entry` for `peer`.
    public func store(_ entry: GATTClientCacheEntry, for peer: GATTPeerIdentity) async {
        entries.withLock { $0[peer] = entry }
    }

    /// Forgets the entry for `peer`.
    public func removeEntry(for peer: GATTPeerIdentity) async {
        _ = entries.withLock { $0.removeValue(forKey: peer) }
    }

    /// The number of peers with an entry.
    public var count: Int { entries.withLock { $0.count } }
}
