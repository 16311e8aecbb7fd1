import BLECore
import Foundation

/// What happened to a ``PeripheralManager`` itself, from ``PeripheralManager/events``, in
/// order: restoration, the links centrals make and end, what centrals write that the stack
/// answers itself, pairing, and advertising that could not restart (after a connection, or after a controller reset) (requests and subscriptions
/// have streams of their own). Core Bluetooth tells none of these but restoration; tools that log
/// what centrals do (`blectl serve`) need them.
public enum PeripheralManagerEvent: Sendable {
    /// A manager with a ``ManagerOptions/restoreIdentifier`` found the state its predecessor
    /// kept, published its services again and, if it was advertising, advertises again; sent
    /// before the manager is ``ManagerState/poweredOn``. Not sent when there was no state or it
    /// could not be trusted.
    case willRestoreState(RestoredPeripheralManagerState)
    /// Restoration could not trust, read, write or bring back something
    /// (``RestorationProblem``); also kept in ``PeripheralManager/restorationProblems``.
    case restorationProblem(RestorationProblem)
    /// A central connected: its link is served from its first ATT PDU on.
    case connected(Central)
    /// A central's link ended, with the Reason of its Disconnection Complete (Core v5.4, Vol 4,
    /// Part E, 7.7.5): 0x13 Remote User Terminated Connection, 0x08 Connection Timeout, ...; in
    /// kernel mode, when no Disconnection Complete reached the manager, the Reason the kernel's
    /// errno stands for.
    case disconnected(Central, BLEError.Reason)
    /// A central wrote its Client Characteristic Configuration descriptor of `characteristic`
    /// with a new value (Vol 3, Part G, 3.3.3.3): the kinds of update it enables now, none when
    /// it disabled them. Every change is told, also from notifications to indications;
    /// ``PeripheralManager/subscriptions`` tells only subscribing and unsubscribing.
    case clientConfigurationChanged(Central, MutableCharacteristic, Set<ValueUpdateKind>)
    /// A central wrote a value the stack keeps and answers for itself (a characteristic with a
    /// static value, or a descriptor of a published database), at the attribute `handle` (a
    /// characteristic's ``MutableCharacteristic/valueHandle``, or a descriptor's handle): the
    /// whole value after the write (Vol 3, Part G, 4.9). Values the application answers for
    /// come through ``PeripheralManager/requests`` instead.
    case valueWritten(Central, handle: UInt16, value: Data)
    /// Kernel mode, with ``ManagerOptions/acceptsJustWorksPairing``: the manager answered the
    /// kernel's Just Works pairing request from the device at this address; nil when it accepted,
    /// else why the answer failed.
    case pairingAnswered(BluetoothAddress, BLEError?)
    /// Kernel mode, with ``ManagerOptions/acceptsJustWorksPairing``: no pairing agent could be
    /// started (the management channel needs CAP_NET_ADMIN); the text says why. Pairing then
    /// completes only if another agent (bluetoothd's) answers.
    case pairingAgentUnavailable(String)
    /// Advertising could not start again after a central connected (Core v5.4, Vol 6, Part B,
    /// 4.4.2: a connectable advertising set ends when a connection forms), so further centrals
    /// cannot connect until ``PeripheralManager/startAdvertising(_:)`` is called again.
    case advertisingRestartFailed(BLEError)
    /// Advertising that was in effect when the controller reported a Hardware Error could not
    /// start again once it was reset and back (``ManagerState/poweredOn``), with this error;
    /// ``PeripheralManager/isAdvertising`` is false. Call ``PeripheralManager/startAdvertising(_:)``
    /// to try again.
    case advertisingStopped(BLEError)
}
