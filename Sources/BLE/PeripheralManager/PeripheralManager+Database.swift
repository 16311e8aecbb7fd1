import Foundation
import GATT

/// Beside Core Bluetooth, for tools that serve a database file (`blectl serve`) and log what
/// centrals do: a whole ``GATTDatabase`` published as it is, updates sent at once with their
/// outcome, and the controller's own address.
extension PeripheralManager {
    /// Serves `database` as it is, with every attribute at the handle it declares (a database
    /// loaded from JSON, docs/gatt-database-json.md, or built with ``GATTDatabase``'s builder),
    /// in place of the services added with ``add(_:)``; the server adds its GAP service (named
    /// ``ManagerOptions/deviceName``) and GATT service where the database leaves them room,
    /// as a ``GATTServer`` made on it does, whatever was served before.
    /// Connected centrals hear of the change through Service Changed and a new Database Hash
    /// (Core v5.4, Vol 3, Part G, 7.1, 7.3).
    ///
    /// The returned services stand for the database's, in order: each ``MutableCharacteristic``
    /// has the characteristic's UUID, properties, static value (nil for a dynamic one) and
    /// permissions, and its ``MutableCharacteristic/valueHandle``; ``subscriptions``,
    /// ``updateValue(_:for:onSubscribedCentrals:)`` and ``sendUpdate(_:for:kind:to:)`` work with
    /// them. Reads and writes are answered by the database (its static values, which keep what
    /// centrals write, and its own handlers for dynamic ones), never through ``requests``; writes
    /// of static values are on ``events`` (``PeripheralManagerEvent/valueWritten(_:handle:value:)``).
    /// ``add(_:)`` refuses until ``removeAllServices()``; ``remove(_:)`` leaves the database alone.
    /// Restoration does not keep a published database (its dynamic values are code): the state
    /// file then lists no services, and a successor publishes it again itself.
    ///
    /// - Returns: one ``MutableService`` per service of `database`, in order, with their includes.
    /// - Throws: ``BLEError/invalidArgument(_:)`` when the server cannot serve it (its handles
    ///   leave no room for the GAP and GATT services, ...); ``BLEError/poweredOff`` (or why the
    ///   manager is not powered on; waits for bring-up first, or throws ``BLEError/cancelled``
    ///   when the calling task is cancelled meanwhile).
    @discardableResult
    public func publish(_ database: GATTDatabase) async throws(BLEError) -> [MutableService] {
        try await core.publish(database)
    }

    /// Sends `value` at once, as a notification or a confirmed indication (Core v5.4, Vol 3,
    /// Part G, 4.10, 4.11), to the centrals whose Client Characteristic Configuration enables
    /// that `kind` (of `centrals` only, when given), each cut to its
    /// ``Central/maximumUpdateValueLength``, and returns once each was sent (an indication: once
    /// confirmed, or failed). Unlike ``updateValue(_:for:onSubscribedCentrals:)``, which queues
    /// and picks the kind each central asked for, nothing is queued and the outcome comes back:
    /// a tool can say who got what. During a database change it waits until the manager has
    /// followed the new handles.
    ///
    /// - Returns: the centrals it reached, in the order of their links.
    /// - Throws: ``BLEError/invalidArgument(_:)`` when `characteristic` is not served or does not
    ///   have the property `kind` needs (Notify, Indicate); ``BLEError/poweredOff`` (waits for
    ///   bring-up first); ``BLEError/cancelled`` when the calling task is cancelled while it waits.
    @discardableResult
    public func sendUpdate(_ value: Data, for characteristic: MutableCharacteristic, kind: ValueUpdateKind,
                           to centrals: [Central]? = nil) async throws(BLEError) -> [Central] {
        try await core.sendUpdate([UInt8](value), for: characteristic, kind: kind, to: centrals)
    }

    /// The controller's own identity address and whether it is public or random: kernel mode's
    /// adapter's BD_ADDR, host mode's public address or the static random one bring-up set (Core
    /// v5.4, Vol 6, Part B, 1.3.2.1); nil before the manager is powered on and after its mode ended.
    public var localAddress: (address: BluetoothAddress, type: Peripheral.AddressType)? {
        get async { await core.localAddress() }
    }
}
