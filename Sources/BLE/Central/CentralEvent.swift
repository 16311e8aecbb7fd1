/// What happened to a ``CentralManager``'s peripherals, from ``CentralManager/events``, in order.
public enum CentralEvent: Sendable {
    /// ``CentralManager/connect(_:options:)`` made the link (and exchanged the ATT MTU).
    case connected(Peripheral)
    /// The link ended: nil when ``CentralManager/cancelPeripheralConnection(_:)`` ended it,
    /// else ``BLEError/disconnected(_:)`` with the Reason (Core v5.4, Vol 4, Part E, 7.7.5).
    case disconnected(Peripheral, BLEError?)
}
