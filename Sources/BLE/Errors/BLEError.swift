import ATT
import BLECore
import HCI

/// The one error of the BLE API: what went wrong, typed, with what to do when the fix is outside
/// the program (a capability, bluetoothd, rfkill).
///
/// ```swift
/// do {
///     try await central.connect(peripheral, options: ConnectOptions(timeout: .seconds(10)))
/// } catch .connectionTimeout {
///     print("not in range")
/// } catch .disconnected(let reason) {
///     print("the link dropped: \(reason)")             // Connection Timeout (0x08)
/// }
/// ```
///
/// The cases from ``notConnected`` to ``unsupported(_:)`` are Core Bluetooth's; the ones after
/// them say what Core Bluetooth folds into "unknown".
public enum BLEError: Error, Hashable, Sendable, CustomStringConvertible {
    /// An HCI error code as a link's end or a failed attempt reports it (Core v5.4, Vol 1,
    /// Part F, 1.3): 0x08 Connection Timeout, 0x13 Remote User Terminated Connection, 0x16
    /// Connection Terminated By Local Host, 0x3E Connection Failed To Be Established, ...
    public typealias Reason = HCIStatus

    /// The peripheral has no link now: connect it first (or again, after a disconnection).
    case notConnected
    /// The connection attempt ended with this status in its LE Connection Complete (Vol 4,
    /// Part E, 7.7.65.1), for example 0x3E Connection Failed To Be Established.
    case connectionFailed(Reason)
    /// No connection formed within ``ConnectOptions/timeout``; the attempt was cancelled at the
    /// controller (HCI_LE_Create_Connection_Cancel, Vol 4, Part E, 7.8.13).
    case connectionTimeout
    /// The link dropped while the call was pending (or the stream open), with the Reason of its
    /// Disconnection Complete (Vol 4, Part E, 7.7.5); 0x03 Hardware Failure when the controller
    /// or its transport failed.
    case disconnected(Reason)
    /// No service with this UUID in the peripheral's discovered tree on the current connection
    /// (a ``Service`` from an earlier connection is not valid on a later one: discover again).
    case serviceNotFound(BluetoothUUID)
    /// No characteristic (or descriptor) with this UUID in the current connection's tree.
    case characteristicNotFound(BluetoothUUID)
    /// The peer answered with ATT_ERROR_RSP: its Error Code and the Attribute Handle In Error
    /// (Vol 3, Part F, 3.4.1.1).
    case att(ATTError.Code, handle: UInt16)
    /// The advertising data (or scan response) needs `needed` octets and the controller's
    /// advertising takes `available`: 31 with legacy advertising, up to 251 per extended
    /// advertising PDU (Vol 4, Part E, 7.8.7 and 7.8.54).
    case advertisingDataTooLong(needed: Int, available: Int)
    /// The manager's controller is off or gone (its transport closed, it reported a Hardware
    /// Error, rfkill blocks it); ``ManagerState`` says which.
    case poweredOff
    /// This process may not use the controller; the text says what to grant or stop (for
    /// example CAP_NET_ADMIN for the HCI user channel, or bluetoothd holding the adapter).
    case unauthorized(String)
    /// The transport, the controller or this version cannot do what was asked; the text says
    /// what and why (no such adapter, no LE, a kernel without Bluetooth, ...).
    case unsupported(String)

    /// The peer left an ATT request unanswered for 30 s (Vol 3, Part F, 3.3.3): the bearer
    /// carries no more ATT, so the link is disconnected.
    case transactionTimeout
    /// The call's task was cancelled, or ``CentralManager/cancelPeripheralConnection(_:)``
    /// ended the connection attempt.
    case cancelled
    /// The call itself is wrong; the text says why (a value longer than the write allows, a
    /// peripheral of another manager, a characteristic without Write Without Response, ...).
    /// Nothing was sent.
    case invalidArgument(String)
    /// The peer broke the protocol (a malformed or out-of-order response, a notifying
    /// characteristic without its Client Characteristic Configuration descriptor); the text
    /// names what and where.
    case protocolError(String)
    /// The controller refused a command or did not answer it; the text names the command and
    /// the status (Vol 4, Part E, 7.7.14 and 7.7.15).
    case controllerError(String)

    /// One line: "the link dropped: Connection Timeout (0x08)", ...
    public var description: String {
        switch self {
        case .notConnected: return "the peripheral is not connected"
        case .connectionFailed(let reason): return "the connection failed: \(reason)"
        case .connectionTimeout: return "no connection within the timeout; the attempt was cancelled"
        case .disconnected(let reason): return "the link dropped: \(reason)"
        case .serviceNotFound(let uuid): return "no service \(uuid.descriptionWithName) on the current connection"
        case .characteristicNotFound(let uuid): return "no attribute \(uuid.descriptionWithName) on the current connection"
        case .att(let code, let handle): return "ATT error at handle \(Hex.hex16(handle)): \(code)"
        case .advertisingDataTooLong(let needed, let available):
            return "the advertising data needs \(needed) octets; the controller takes \(available)"
        case .poweredOff: return "the controller is powered off or gone"
        case .unauthorized(let what): return "not authorized: \(what)"
        case .unsupported(let what): return "unsupported: \(what)"
        case .transactionTimeout: return "the peer left an ATT request unanswered for 30 s; the link was disconnected"
        case .cancelled: return "cancelled"
        case .invalidArgument(let why): return "invalid argument: \(why)"
        case .protocolError(let what): return "protocol error: \(what)"
        case .controllerError(let what): return "controller error: \(what)"
        }
    }
}
