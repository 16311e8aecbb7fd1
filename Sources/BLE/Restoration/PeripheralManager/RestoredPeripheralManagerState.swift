/// What a ``PeripheralManager`` restored from its predecessor's state file, delivered on
/// ``PeripheralManager/events`` as ``PeripheralManagerEvent/willRestoreState(_:)``
/// (docs/state-restoration.md).
///
/// ```swift
/// for await event in manager.events {
///     guard case .willRestoreState(let restored) = event else { continue }
///     let rate = restored.services.flatMap(\.characteristics).first { $0.uuid == BluetoothUUID("2A37")! }
///     _ = manager.updateValue(Data([0, 72]), for: rate!, onSubscribedCentrals: nil)
/// }
/// ```
///
/// No central is subscribed at first: without a bond a server does not keep a central's Client
/// Characteristic Configuration across connections (Core v5.4, Vol 3, Part G, 3.3.3.3), so each
/// central subscribes again when it reconnects.
public struct RestoredPeripheralManagerState: Sendable {
    /// The services published again, in the order they had been added: new objects with the
    /// same types, characteristics (properties, permissions, static values) and includes. Use
    /// them as ones you had added (``PeripheralManager/remove(_:)``,
    /// ``PeripheralManager/updateValue(_:for:onSubscribedCentrals:)``); requests for their
    /// application-answered values come through ``PeripheralManager/requests`` as before.
    public let services: [MutableService]
    /// The advertising data last given to ``PeripheralManager/startAdvertising(_:)``; nil when
    /// it never advertised.
    public let advertisementData: AdvertisementData?
    /// Whether it advertises again (it was advertising, and the controller took the data).
    public let isAdvertising: Bool
}
