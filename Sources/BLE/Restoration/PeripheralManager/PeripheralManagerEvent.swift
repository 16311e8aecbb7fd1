/// What happened to a ``PeripheralManager`` itself, from ``PeripheralManager/events``, in
/// order: restoration so far (requests and subscriptions have streams of their own).
public enum PeripheralManagerEvent: Sendable {
    /// A manager with a ``ManagerOptions/restoreIdentifier`` found the state its predecessor
    /// kept, published its services again and, if it was advertising, advertises again; sent
    /// before the manager is ``ManagerState/poweredOn``. Not sent when there was no state or it
    /// could not be trusted.
    case willRestoreState(RestoredPeripheralManagerState)
    /// Restoration could not trust, read, write or bring back something
    /// (``RestorationProblem``); also kept in ``PeripheralManager/restorationProblems``.
    case restorationProblem(RestorationProblem)
    /// Advertising that was in effect when the controller reported a Hardware Error could not
    /// start again once it was reset and back (``ManagerState/poweredOn``), with this error;
    /// ``PeripheralManager/isAdvertising`` is false. Call ``PeripheralManager/startAdvertising(_:)``
    /// to try again.
    case advertisingStopped(BLEError)
}
