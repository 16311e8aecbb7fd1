/// What happened to a ``CentralManager``'s peripherals, from ``CentralManager/events``, in order.
public enum CentralEvent: Sendable {
    /// ``CentralManager/connect(_:options:)`` made the link (and exchanged the ATT MTU); or
    /// restoration reconnected a restored peripheral, reusing or rediscovering its database and
    /// resubscribing what was notifying, before this event (docs/state-restoration.md).
    case connected(Peripheral)
    /// The link ended: nil when ``CentralManager/cancelPeripheralConnection(_:)`` ended it,
    /// else ``BLEError/disconnected(_:)`` with the Reason (Core v5.4, Vol 4, Part E, 7.7.5).
    case disconnected(Peripheral, BLEError?)
    /// A manager with a ``ManagerOptions/restoreIdentifier`` found the state its predecessor
    /// kept: the first event of its stream, before any other. Not sent when there was no state
    /// (a first start) or it could not be trusted (then ``restorationProblem(_:)`` comes first).
    case willRestoreState(RestoredState)
    /// Restoration could not trust, read, write or bring back something
    /// (``RestorationProblem``); also kept in ``CentralManager/restorationProblems``.
    case restorationProblem(RestorationProblem)
}
