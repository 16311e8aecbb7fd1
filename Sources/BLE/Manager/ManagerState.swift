/// What a manager's controller can do now, as Core Bluetooth's `CBManagerState`, mapped from
/// facts Linux gives (docs/architecture.md, "The BLE layer").
///
/// | state | when |
/// |---|---|
/// | ``unknown`` | the manager is opening its transport and bringing the controller up |
/// | ``resetting`` | the controller reported HCI_Hardware_Error (Core v5.4, Vol 4, Part E, 7.7.16), or the host lost its connection events; the links are gone, and host mode is bringing the controller up again (then ``poweredOn``, or ``poweredOff`` when it cannot) |
/// | ``unsupported`` | no such adapter or transport, a controller without LE, or a mode this version does not drive |
/// | ``unauthorized`` | the process lacks the capability (CAP_NET_ADMIN for the HCI user channel), or another process holds the adapter |
/// | ``poweredOff`` | rfkill blocks the adapter, the transport closed, or the controller went away after a reset |
/// | ``poweredOn`` | the controller is up; scanning, connecting and advertising work |
///
/// Nothing is done before ``poweredOn``: each call documents whether it waits for the
/// manager's bring-up (while ``unknown`` or ``resetting``) or throws at once.
public enum ManagerState: Hashable, Sendable, CustomStringConvertible {
    /// Bring-up has not finished.
    case unknown
    /// The controller reset under the host; what was in flight failed, and it is being brought
    /// up again.
    case resetting
    /// The transport or controller cannot be used for Bluetooth LE by this manager.
    case unsupported
    /// This process may not use the controller.
    case unauthorized
    /// The controller is off, blocked or gone.
    case poweredOff
    /// The controller is up.
    case poweredOn

    /// "poweredOn", ...
    public var description: String {
        switch self {
        case .unknown: return "unknown"
        case .resetting: return "resetting"
        case .unsupported: return "unsupported"
        case .unauthorized: return "unauthorized"
        case .poweredOff: return "poweredOff"
        case .poweredOn: return "poweredOn"
        }
    }
}
