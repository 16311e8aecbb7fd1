import BLECore
import GATT

/// What `blectl serve` does with its clients' writes, so that a central can see notifications and
/// indications without any other program: it follows the server's events and
///
/// - when a client sets Notification or Indication in a CCCD, sends that client the
///   characteristic's current value that way (a first value for the new subscriber);
/// - when a client writes a characteristic that notifies or indicates, sends the new value to
///   every client subscribed to it (Core v5.4, Vol 3, Part G, 4.10, 4.11).
///
/// Each event is printed as a line ("00:AA:01:01:00:01 subscribed to 0x000c: notification").
actor ServeNotifier {
    private let server: GATTServer
    private let database: GATTDatabase
    private let events: ServeEvents
    private var connections: [UInt64: GATTServerConnection] = [:]
    /// The peers' names by connection: kept after a disconnection, because the server's events
    /// about a connection can be read after it ended; the oldest go beyond ``namesKept``.
    private var names: [UInt64: String] = [:]
    private let namesKept = 1024
    private var values: [UInt16: [UInt8]] = [:]

    init(server: GATTServer, database: GATTDatabase, events: ServeEvents) {
        self.server = server
        self.database = database
        self.events = events
    }

    /// Names a connection's peer in the lines printed.
    func add(_ connection: GATTServerConnection, name: String) {
        connections[connection.peer.connectionID] = connection
        names[connection.peer.connectionID] = name
        if names.count > namesKept, let oldest = names.keys.min() { names.removeValue(forKey: oldest) }
    }

    func remove(_ connection: GATTServerConnection) {
        connections.removeValue(forKey: connection.peer.connectionID)
    }

    /// Follows the server's events until they end.
    func run() async {
        for await event in server.events {
            switch event {
            case .configurationChanged(let peer, let handle, let configuration):
                await subscribed(peer, handle, configuration)
            case .valueWritten(let peer, let handle, let value):
                await written(peer, handle, value)
            default:
                break
            }
        }
    }

    private func name(_ peer: GATTPeer) -> String { names[peer.connectionID] ?? "\(peer)" }

    private func subscribed(_ peer: GATTPeer, _ handle: UInt16, _ configuration: GATTClientCharacteristicConfiguration) async {
        let kinds = [configuration.contains(.notification) ? "notification" : nil, configuration.contains(.indication) ? "indication" : nil]
            .compactMap { $0 }
        events.say("\(name(peer)) subscribed to \(Hex.hex16(handle)): \(kinds.isEmpty ? "none" : kinds.joined(separator: ", "))")
        guard let connection = connections[peer.connectionID], let value = currentValue(handle) else { return }
        do {
            if configuration.contains(.notification) { _ = try await connection.notify(value, for: handle) }
            if configuration.contains(.indication) { _ = try await connection.indicate(value, for: handle) }
        } catch {
            events.say("\(name(peer)): sending \(Hex.hex16(handle)): \(error)")
        }
    }

    private func written(_ peer: GATTPeer, _ handle: UInt16, _ value: [UInt8]) async {
        events.say("\(name(peer)) wrote \(Hex.hex16(handle)): \(value.isEmpty ? "(empty)" : Hex.encode(value))")
        guard let characteristic = database.characteristic(valueHandle: handle) else { return }
        values[handle] = value
        do {
            if characteristic.properties.contains(.notify) {
                let report = try await server.notify(value, for: handle)
                if !report.delivered.isEmpty { events.say("notified \(Hex.hex16(handle)) to \(report.delivered.count)") }
            }
            if characteristic.properties.contains(.indicate) {
                let report = try await server.indicate(value, for: handle)
                if !report.delivered.isEmpty { events.say("indicated \(Hex.hex16(handle)) to \(report.delivered.count)") }
            }
        } catch {
            events.say("sending \(Hex.hex16(handle)): \(error)")
        }
    }

    /// The last value written to `handle`, else its fixed value in the database.
    private func currentValue(_ handle: UInt16) -> [UInt8]? {
        if let written = values[handle] { return written }
        guard case .fixed(let value)? = database.characteristic(valueHandle: handle)?.value else { return nil }
        return value
    }
}
