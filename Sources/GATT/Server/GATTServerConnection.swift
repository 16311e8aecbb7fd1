import ATT
import Synchronization

/// One client connection to a ``GATTServer``: the engine of its bearer and the state the server
/// keeps for it (Core v5.4, Vol 3, Part G: CCCD values, prepare queue, change-awareness, Client
/// Supported Features; the MTU is the engine's).
///
/// The state lives in the server; this object names it. Once the connection is detached (or its
/// bearer closes and the server notices) the state is gone and the accessors return the
/// defaults: configurations 0x0000, no features, change-aware; ``record`` alone keeps the state
/// as it was then, to store with a bond.
///
/// ```swift
/// let connection = await server.connect(bearer)
/// await connection.configuration(for: heartRateHandle)     // [.notification] once subscribed
/// try await connection.indicate([0x01], for: alertHandle)  // to this client only
/// ```
public final class GATTServerConnection: Sendable, Hashable, CustomStringConvertible {
    /// The peer, as the server identifies it to dynamic values' handlers.
    public let peer: GATTPeer
    /// The engine of the connection's bearer.
    public let engine: ATTEngine
    /// The server serving it.
    public let server: GATTServer
    /// The connection's record as it was when its state went (detached, or dropped when its
    /// bearer closed); nil while attached.
    private let finalRecord = Mutex<GATTClientRecord?>(nil)

    init(peer: GATTPeer, engine: ATTEngine, server: GATTServer) {
        self.peer = peer
        self.engine = engine
        self.server = server
    }

    /// Whether the server still holds the connection's state.
    public var isAttached: Bool { get async { await server.state(of: peer.connectionID) != nil } }

    /// The ATT_MTU in effect, in octets (the engine's).
    public var mtu: Int { engine.mtu }

    /// This client's Client Characteristic Configuration for the characteristic whose value is at
    /// `valueHandle` (or whose CCCD is at `valueHandle`); empty when there is none.
    public func configuration(for valueHandle: UInt16) async -> GATTClientCharacteristicConfiguration {
        await server.configuration(for: valueHandle, connection: peer.connectionID)
    }

    /// The Client Supported Features value this client wrote (Part G, 7.2); empty is all zero.
    public var clientSupportedFeatures: [UInt8] {
        get async { await server.state(of: peer.connectionID)?.clientSupportedFeatures ?? [] }
    }

    /// Whether the server considers this client change-aware (Part G, 2.5.2.1).
    public var isChangeAware: Bool {
        get async { await server.state(of: peer.connectionID)?.isChangeAware ?? true }
    }

    /// The number of prepared writes queued and their value octets (Part F, 3.4.6).
    public var preparedWrites: (entries: Int, octets: Int) {
        get async {
            guard let queue = await server.state(of: peer.connectionID)?.prepareQueue else { return (0, 0) }
            return (queue.entries.count, queue.octets)
        }
    }

    /// What to keep with a bond when the client disconnects (Part G, 2.5.2.1, 3.3.3.3: a bonded
    /// client's CCCDs, Client Supported Features and change-awareness persist across
    /// connections): while attached, the state now; once the connection is detached or its
    /// bearer has closed, the state as it was at that moment, so it can still be read after
    /// ``GATTServerEvent/disconnected(_:)``.
    public var record: GATTClientRecord? {
        get async {
            if let live = await server.record(of: peer.connectionID) { return live }
            return finalRecord.withLock { $0 }
        }
    }

    /// Keeps `record` as the connection's state at its end (the server calls it as the state goes).
    func keepFinalRecord(_ record: GATTClientRecord?) {
        finalRecord.withLock { $0 = record }
    }

    /// Sets (or, with nil, removes) the peer's CSRK for signed writes (Part C, 10.4.2).
    public func setSigningKey(_ key: GATTSigningKey?) async {
        await server.setSigningKey(key, for: peer.connectionID)
    }

    /// Records whether an LTK or STK now exists for the peer (after pairing), which decides
    /// between Insufficient Authentication and Insufficient Encryption (Part C, 10.3.1).
    public func setBonded(_ bonded: Bool) async {
        await server.setBonded(bonded, for: peer.connectionID)
    }

    /// Notifies this client of `value` for the characteristic whose value is at `handle`, if it
    /// subscribed (see ``GATTServer/notify(_:for:)``).
    ///
    /// - Throws: ``GATTServerError/notNotifiable(handle:operation:)``.
    @discardableResult
    public func notify(_ value: [UInt8], for handle: UInt16) async throws(GATTServerError) -> GATTDeliveryReport {
        try await server.notify(value, for: handle, only: [peer.connectionID])
    }

    /// Indicates `value` to this client and waits for its confirmation, if it subscribed (see
    /// ``GATTServer/indicate(_:for:)``).
    ///
    /// - Throws: ``GATTServerError/notNotifiable(handle:operation:)``.
    @discardableResult
    public func indicate(_ value: [UInt8], for handle: UInt16) async throws(GATTServerError) -> GATTDeliveryReport {
        try await server.indicate(value, for: handle, only: [peer.connectionID])
    }

    /// Detaches the connection from the server (see ``GATTServer/detach(_:)``).
    public func detach() async { await server.detach(self) }

    /// Whether both name the same connection (the same object).
    public static func == (lhs: GATTServerConnection, rhs: GATTServerConnection) -> Bool { lhs === rhs }

    /// Hashes the object's identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// "GATT server connection 3".
    public var description: String { "GATT server \(peer)" }
}

extension GATTServer {
    /// The configuration of connection `id` for the characteristic value (or CCCD) at `handle`.
    func configuration(for handle: UInt16, connection id: UInt64) -> GATTClientCharacteristicConfiguration {
        guard let state = states[id] else { return [] }
        if case .clientCharacteristicConfiguration = served.roles[handle] { return state.configuration(handle) }
        guard let cccd = served.database.characteristic(valueHandle: handle)?.clientCharacteristicConfigurationHandle else { return [] }
        return state.configuration(cccd)
    }
}
