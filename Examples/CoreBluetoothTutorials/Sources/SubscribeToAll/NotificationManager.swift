// A notification manager, as tutorials build one around CBPeripheral: subscribe to every
// characteristic that notifies or indicates in one call, get all their values from one place,
// and unsubscribe from all of them in one call.

import BLE
import Foundation

/// One value a characteristic notified or indicated.
struct NotifiedValue: Sendable {
    let characteristic: Characteristic
    let value: Data
}

/// The subscriptions of one connected peripheral. An actor: its calls may come from any task.
actor NotificationManager {
    let peripheral: Peripheral
    /// The characteristics subscribed to now, in discovery order.
    private(set) var subscribed: [Characteristic] = []
    private var pumps: [Task<Void, Never>] = []

    init(peripheral: Peripheral) {
        self.peripheral = peripheral
    }

    /// Discovers every service and characteristic (those discovered already are reused), then
    /// subscribes to each characteristic that notifies or indicates: Core Bluetooth's
    /// setNotifyValue(true, for:) on each, with peripheral(_:didUpdateValueFor:error:) becoming
    /// the stream returned.
    ///
    /// - Returns: every value of every subscribed characteristic, in the order each arrives. The
    ///   stream finishes once ``unsubscribeFromAll()`` has turned them all off, and throws
    ///   `BLEError.disconnected(reason)` when the link drops first.
    func subscribeToAll() async throws(BLEError) -> AsyncThrowingStream<NotifiedValue, any Error> {
        var characteristics: [Characteristic] = []
        for service in try await peripheral.discoverServices() {
            let known = service.characteristics ?? []
            let all = known.isEmpty ? try await peripheral.discoverCharacteristics(nil, for: service) : known
            characteristics += all.filter { !$0.properties.isDisjoint(with: [.notify, .indicate]) && !$0.isNotifying }
        }
        let (stream, input) = AsyncThrowingStream.makeStream(of: NotifiedValue.self, throwing: (any Error).self)
        var pumps: [Task<Void, Never>] = []
        var done: [Characteristic] = []
        do throws(BLEError) {
            for characteristic in characteristics {
                // The characteristic's own stream, opened before subscribing so that no value is
                // missed, copied into the one stream.
                let values = peripheral.notifications(for: characteristic)
                pumps.append(Task {
                    do {
                        for try await value in values { input.yield(NotifiedValue(characteristic: characteristic, value: value)) }
                    } catch {
                        input.finish(throwing: error)
                    }
                })
                try await peripheral.setNotifyValue(true, for: characteristic)
                done.append(characteristic)
            }
        } catch {
            // All or nothing: what was turned on goes off again (if the link still allows).
            for pump in pumps { pump.cancel() }
            for characteristic in done { try? await peripheral.setNotifyValue(false, for: characteristic) }
            throw error
        }
        // The one stream finishes when every characteristic's stream has.
        let all = pumps
        Task {
            for pump in all { await pump.value }
            input.finish()
        }
        subscribed += characteristics
        self.pumps += pumps
        return stream
    }

    /// Unsubscribes from everything subscribed by ``subscribeToAll()``: setNotifyValue(false, for:)
    /// on each, which writes its Client Characteristic Configuration descriptor back to 0 and
    /// finishes its stream.
    func unsubscribeFromAll() async throws(BLEError) {
        let characteristics = subscribed
        subscribed = []
        for characteristic in characteristics { try await peripheral.setNotifyValue(false, for: characteristic) }
        for pump in pumps { await pump.value }
        pumps = []
    }
}
