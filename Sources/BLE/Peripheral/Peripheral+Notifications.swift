import Foundation
import GATT

/// Notifications and indications (Core v5.4, Vol 3, Part G, 4.10, 4.11): the Client
/// Characteristic Configuration descriptor written by ``setNotifyValue(_:for:)``, the values
/// delivered by ``notifications(for:)``, apart from read results.
extension Peripheral {
    /// Turns notifications (or, for a characteristic with Indicate but not Notify, indications,
    /// which the stack confirms) of `characteristic` on or off: writes its Client
    /// Characteristic Configuration descriptor (Part G, 3.3.3.3, found by discovering its
    /// descriptors when not discovered yet) and returns once the server has answered.
    /// ``Characteristic/isNotifying`` follows. A subscription lasts for the link: after a
    /// reconnection, call this again (except after a restoration's reconnection, which
    /// resubscribes on its own: docs/state-restoration.md).
    ///
    /// - Throws: ``BLEError/notConnected``; ``BLEError/characteristicNotFound(_:)`` when
    ///   `characteristic` is not from the current connection, or a Service Changed took its
    ///   service out of the tree (``servicesModified``; turning such a one off does nothing and
    ///   throws nothing);
    ///   ``BLEError/invalidArgument(_:)`` when the characteristic has neither Notify nor
    ///   Indicate; ``BLEError/protocolError(_:)`` when it has no Client Characteristic
    ///   Configuration descriptor; ``BLEError/att(_:handle:)`` when the write is refused (when
    ///   turning off, the values stop here all the same, and ``Characteristic/isNotifying`` is
    ///   false; the server, whose CCCD kept its bit, may go on sending them);
    ///   ``BLEError/disconnected(_:)``.
    public func setNotifyValue(_ enabled: Bool, for characteristic: Characteristic) async throws(BLEError) {
        try await setNotifyValue(enabled, for: characteristic, kind: nil)
    }

    /// As ``setNotifyValue(_:for:)``, with the kind of update chosen: the Client
    /// Characteristic Configuration's Notification bit, or its Indication bit (Part G, 3.3.3.3),
    /// for a characteristic that has both, or to insist on one. Turning off ignores `kind`.
    /// ``valueUpdates(for:)`` says which kind each value came as.
    ///
    /// - Throws: as ``setNotifyValue(_:for:)``; ``BLEError/invalidArgument(_:)`` also when
    ///   the characteristic lacks the property of `kind` (Notify, Indicate), or has the other
    ///   kind enabled already on this connection (turn it off first).
    public func setNotifyValue(_ enabled: Bool, for characteristic: Characteristic, kind: ValueUpdateKind) async throws(BLEError) {
        try await setNotifyValue(enabled, for: characteristic, kind: Optional(kind))
    }

    private func setNotifyValue(_ enabled: Bool, for characteristic: Characteristic, kind: ValueUpdateKind?) async throws(BLEError) {
        // Turning off a characteristic a Service Changed invalidated: it stopped notifying then,
        // and its subscription ended without a write; clean-up code has nothing to do.
        if !enabled, characteristic.isInvalidated, (try? connectedLink())?.generation == characteristic.generation { return }
        let link = try connectedLink(for: characteristic)
        guard !characteristic.properties.isDisjoint(with: [.notify, .indicate]) else {
            throw .invalidArgument("\(characteristic) has neither Notify nor Indicate")
        }
        if enabled {
            try await link.subscribe(characteristic, kind: kind)
        } else {
            try await link.unsubscribe(characteristic)
        }
        restoration?.treeChanged(self)
    }

    /// The values `characteristic` notifies or indicates on the current connection, in the
    /// order the server sent them, from the moment of this call (open it before
    /// ``setNotifyValue(_:for:)`` to miss none). Several streams may be open; each gets every
    /// value. Read results never appear here.
    ///
    /// The stream finishes when notifications are turned off, and throws
    /// ``BLEError/disconnected(_:)`` when the link drops; it throws ``BLEError/notConnected``
    /// or ``BLEError/characteristicNotFound(_:)`` at once when made without a connection, for
    /// a characteristic of another one, or for one a Service Changed invalidated (and with
    /// ``BLEError/characteristicNotFound(_:)`` when a Service Changed invalidates it later).
    public func notifications(for characteristic: Characteristic) -> AsyncThrowingStream<Data, any Error> {
        let link: PeripheralLink
        do {
            link = try connectedLink(for: characteristic)
        } catch {
            let (stream, continuation) = AsyncThrowingStream.makeStream(of: Data.self, throwing: (any Error).self)
            continuation.finish(throwing: error)
            return stream
        }
        return link.routes.stream(for: characteristic)
    }

    /// As ``notifications(for:)``, each value with the kind of PDU that carried it
    /// (ATT_HANDLE_VALUE_NTF or ATT_HANDLE_VALUE_IND, Part F, 3.4.7), for a caller that must
    /// tell them apart. It starts, finishes and throws as ``notifications(for:)`` does.
    public func valueUpdates(for characteristic: Characteristic) -> AsyncThrowingStream<ValueUpdate, any Error> {
        let link: PeripheralLink
        do {
            link = try connectedLink(for: characteristic)
        } catch {
            let (stream, continuation) = AsyncThrowingStream.makeStream(of: ValueUpdate.self, throwing: (any Error).self)
            continuation.finish(throwing: error)
            return stream
        }
        return link.routes.updates(for: characteristic)
    }
}
