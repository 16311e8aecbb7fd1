/// Where a ``Peripheral``'s link is, as Core Bluetooth's `CBPeripheralState`.
public enum PeripheralState: Hashable, Sendable, CustomStringConvertible {
    /// No link: connect with ``CentralManager/connect(_:options:)``.
    case disconnected
    /// ``CentralManager/connect(_:options:)`` is making the link (LE Create Connection, then
    /// the ATT MTU exchange).
    case connecting
    /// The link is up; GATT calls work.
    case connected
    /// ``CentralManager/cancelPeripheralConnection(_:)`` is ending the link.
    case disconnecting

    /// "connected", ...
    public var description: String {
        switch self {
        case .disconnected: return "disconnected"
        case .connecting: return "connecting"
        case .connected: return "connected"
        case .disconnecting: return "disconnecting"
        }
    }
}
