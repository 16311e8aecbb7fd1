import BLE
import BLECore
import Foundation

/// What `blectl serve` does with its clients' writes, so that a central can see notifications and
/// indications without any other program: from the peripheral manager's events,
///
/// - when a client sets Notification or Indication in a CCCD, it sends that client the
///   characteristic's current value that way (a first value for the new subscriber);
/// - when a client writes a characteristic that notifies or indicates, it sends the new value to
///   every client subscribed to it (Core v5.4, Vol 3, Part G, 4.10, 4.11).
///
/// Each event is printed as a line ("00:AA:01:01:00:01 subscribed to 0x000c: notification").
/// Sends run one at a time, in the order of the events (an indication waits for its confirmation).
actor ServeNotifier {
    private let manager: PeripheralManager
    private let events: ServeEvents
    /// The served characteristics by value handle.
    private var characteristics: [UInt16: MutableCharacteristic] = [:]
    /// The values clients wrote, by value handle.
    private var values: [UInt16: [UInt8]] = [:]

    init(manager: PeripheralManager, events: ServeEvents) {
        self.manager = manager
        self.events = events
    }

    /// The characteristics of the published database, from ``PeripheralManager/publish(_:)``.
    func serve(_ services: [MutableService]) {
        characteristics = [:]
        values = [:]
        for characteristic in services.flatMap(\.characteristics) {
            if let handle = characteristic.valueHandle { characteristics[handle] = characteristic }
        }
    }

    /// Nothing more is sent.
    func finish() {
        characteristics = [:]
    }

    /// `central` wrote the CCCD of `characteristic`: says so and sends it the current value the
    /// ways it asked for.
    func configured(_ central: Central, _ characteristic: MutableCharacteristic, _ kinds: Set<ValueUpdateKind>) async {
        let handle = characteristic.valueHandle ?? 0
        let words = [kinds.contains(.notification) ? "notification" : nil, kinds.contains(.indication) ? "indication" : nil].compactMap { $0 }
        events.say("\(central.address) subscribed to \(Hex.hex16(handle)): \(words.isEmpty ? "none" : words.joined(separator: ", "))")
        guard characteristics[handle] != nil, let value = currentValue(handle, of: characteristic) else { return }
        do throws(BLEError) {
            for kind in [ValueUpdateKind.notification, .indication] where kinds.contains(kind) {
                try await manager.sendUpdate(Data(value), for: characteristic, kind: kind, to: [central])
            }
        } catch {
            events.say("\(central.address): sending \(Hex.hex16(handle)): \(ManagerStartup.sentence(error))")
        }
    }

    /// `central` wrote `value` at `handle`: says so and, for a characteristic that notifies or
    /// indicates, sends the value to its subscribers.
    func written(_ central: Central, _ handle: UInt16, _ value: [UInt8]) async {
        events.say("\(central.address) wrote \(Hex.hex16(handle)): \(value.isEmpty ? "(empty)" : Hex.encode(value))")
        guard let characteristic = characteristics[handle] else { return }
        values[handle] = value
        do throws(BLEError) {
            if characteristic.properties.contains(.notify) {
                let reached = try await manager.sendUpdate(Data(value), for: characteristic, kind: .notification)
                if !reached.isEmpty { events.say("notified \(Hex.hex16(handle)) to \(reached.count)") }
            }
            if characteristic.properties.contains(.indicate) {
                let reached = try await manager.sendUpdate(Data(value), for: characteristic, kind: .indication)
                if !reached.isEmpty { events.say("indicated \(Hex.hex16(handle)) to \(reached.count)") }
            }
        } catch {
            events.say("sending \(Hex.hex16(handle)): \(ManagerStartup.sentence(error))")
        }
    }

    /// The last value written to `handle`, else the characteristic's static value.
    private func currentValue(_ handle: UInt16, of characteristic: MutableCharacteristic) -> [UInt8]? {
        values[handle] ?? characteristic.value.map { [UInt8]($0) }
    }
}
