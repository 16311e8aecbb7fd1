import Foundation
import GATT

/// Subscriptions on one link (Core v5.4, Vol 3, Part G, 4.10, 4.11): the GATT client writes the
/// Client Characteristic Configuration descriptor (reference-counted, 3.3.3.3) and hands each
/// value to ``NotificationRoutes`` as it takes it in; a task per subscription waits for its end.
extension PeripheralLink {
    /// Enables `kind` of updates (nil: notifications when the characteristic has Notify, else
    /// indications) of `characteristic` unless already enabled here.
    ///
    /// - Throws: ``BLEError/invalidArgument(_:)`` when the other kind is enabled already, or the
    ///   characteristic's properties lack `kind`; as ``gatt(_:)`` otherwise.
    func subscribe(_ characteristic: Characteristic, kind wanted: ValueUpdateKind? = nil) async throws(BLEError) {
        let handle = characteristic.remote.valueHandle
        await subscriptionTurns.take(handle)
        defer { subscriptionTurns.leave(handle) }
        // A Service Changed may have taken it out of the tree while this call waited its turn:
        // nothing is written to a handle that may name another attribute now.
        guard !characteristic.isInvalidated else { throw .characteristicNotFound(characteristic.uuid) }
        let chosen = wanted ?? (characteristic.properties.contains(.notify) ? .notification : .indication)
        guard characteristic.properties.contains(chosen == .notification ? .notify : .indicate) else {
            throw .invalidArgument("\(characteristic) has no \(chosen == .notification ? "Notify" : "Indicate") property")
        }
        if let subscribed = routes.subscribedKind(handle) {
            guard subscribed == chosen else {
                throw .invalidArgument("\(characteristic) has \(subscribed)s enabled; turn them off before asking for \(chosen)s")
            }
            return
        }
        let remote = characteristic.remote
        let routes = self.routes
        let made = try await gatt { (client) async throws(GATTClientError) -> GATTClientSubscription? in
            do throws(GATTClientError) {
                return try await client.notifications(for: remote, kind: chosen == .notification ? .notification : .indication) { notification in
                    routes.deliver(notification.value, isIndication: notification.isIndication, handle: handle)
                }
            } catch {
                // A Service Changed took in its CCCD while the write was on its way.
                if case .databaseChanged = error { return nil }
                throw error
            }
        }
        guard let subscription = made else {
            // Marked now, not only when the change's notice reaches the tree: a retry at once
            // must not write to the old handle either.
            characteristic.invalidate()
            throw .characteristicNotFound(characteristic.uuid)
        }
        let stored = routes.store(subscription, kind: chosen, for: characteristic) { token in
            Task { [weak self] in
                for await _ in subscription {}   // the values go to the routes; this waits for the end
                await self?.pumpEnded(handle: handle, token: token)
            }
        }
        switch stored {
        case .failure(let error):
            // The link ended, or a Service Changed invalidated the characteristic meanwhile: the
            // subscription is not kept, and nothing is written (the handle may name another
            // attribute now).
            await subscription.forget()
            throw error
        case .success(false):
            try? await subscription.cancel()   // another call subscribed meanwhile; its subscription stays
        case .success(true):
            characteristic.setNotifying(true)
        }
    }

    /// Disables notifications of `characteristic`: its streams finish, and the Client
    /// Characteristic Configuration is written without its bit before this returns. Made while
    /// a ``subscribe(_:kind:)`` of it is under way, it waits for that call, then undoes it.
    func unsubscribe(_ characteristic: Characteristic) async throws(BLEError) {
        let handle = characteristic.remote.valueHandle
        await subscriptionTurns.take(handle)
        defer { subscriptionTurns.leave(handle) }
        guard let (subscription, pump) = routes.remove(handle) else { return }
        characteristic.setNotifying(false)
        // Cancelled before the pump stops: the pump's iterator, once discarded, would unsubscribe
        // without waiting, and this cancel would then return before the write.
        defer { pump?.cancel() }
        let engine = client.engine
        try await perform { () async -> Result<Void, BLEError>? in
            let refused: GATTClientError?
            do throws(GATTClientError) {
                try await subscription.cancel()
                refused = nil
            } catch {
                refused = error
            }
            // The link dropped under the write: its end answers.
            if self.backend.disconnectionReason != nil { return nil }
            if let refused, case .errorResponse = refused { return self.outcome(of: refused) }
            guard await engine.isClosed else { return .success(()) }
            // The bearer ended with the link up (the write's 30 s timeout, Vol 3, Part F,
            // 3.3.3): as for any call.
            return self.outcome(of: await engine.didTimeOut ? .timeout : .closed)
        }
    }

    /// A subscription's values ended without ``unsubscribe(_:)``: the bearer closed, so the link
    /// has ended (or is ended now). With the GATT client still open, the client ended it for a
    /// Service Changed range, and the peripheral's ``Peripheral/servicesChanged(_:on:)``
    /// invalidates the characteristic next.
    private func pumpEnded(handle: UInt16, token: UInt64) async {
        guard routes.isCurrent(handle, token: token), await client.isClosed else { return }
        if let reason = backend.disconnectionReason { drop(reason) } else { terminate() }
    }
}
