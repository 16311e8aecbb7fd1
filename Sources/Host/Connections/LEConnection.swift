import BLECore
import HCI
import Synchronization

/// One LE link in host mode: its identity, its state, the ATT bearer on its L2CAP fixed channel
/// (CID 0x0004), and the procedures a host runs on it. Made by ``LEConnectionManager``, as
/// central (``LEConnectionManager/connect(to:addressType:parameters:timeout:)``) or as peripheral
/// (``LEConnectionManager/incomingConnections``).
///
/// When the link drops, ``disconnected()`` returns the Disconnection Complete's Reason (Core
/// v5.4, Vol 4, Part E, 7.7.5), the ATT bearer closes, and every operation pending on the link
/// (sends waiting for ACL credits, a connection update, a PHY update, a signaling request) ends
/// exactly once with ``LEConnectionError/disconnected(reason:)``.
///
/// ```swift
/// let connection = try await manager.connect(to: peer, addressType: .random)
/// let engine = ATTEngine(bearer: connection.att)          // GATT runs unchanged on top
/// try await connection.updateParameters(LEConnectionParametersRequest(intervalMin: 24, intervalMax: 40, timeout: 400))
/// let reason = try await connection.disconnect()           // .connectionTerminatedByLocalHost
/// ```
public final class LEConnection: Sendable, CustomStringConvertible {
    /// Connection_Handle, 0x0000...0x0EFF.
    public let handle: UInt16
    /// This host's role on the link.
    public let role: LERole
    /// The peer's address.
    public let peerAddress: BluetoothAddress
    /// The peer's address type (public or random).
    public let peerAddressType: LEAddressType
    /// The ATT bearer on the link's fixed channel 0x0004.
    public let att: LEConnectionATTBearer

    private let manager: LEConnectionManager
    private let current: Mutex<LEConnectionState>
    /// Resolved once the manager has taken the link's end in: ``disconnected()`` waits for it.
    let ended = OneShot<HCIStatus>()
    /// The Reason, set as soon as the link's end is known (on the thread that read the
    /// Disconnection Complete, or when the manager ends), before any sender waiting on the link
    /// is failed: a caller whose send fails can name why.
    let reason = OneShot<HCIStatus>()

    init(handle: UInt16, role: LERole, peerAddress: BluetoothAddress, peerAddressType: LEAddressType,
         state: LEConnectionState, manager: LEConnectionManager, attMTU: UInt16) {
        self.handle = handle
        self.role = role
        self.peerAddress = peerAddress
        self.peerAddressType = peerAddressType
        self.manager = manager
        current = Mutex(state)
        att = LEConnectionATTBearer(handle: handle, manager: manager, maximumMTU: attMTU)
    }

    /// The link's timing, data length and PHYs, as last reported.
    public var state: LEConnectionState { current.withLock { $0 } }

    func update(_ change: (inout LEConnectionState) -> Void) { current.withLock { change(&$0) } }

    /// The Disconnection Complete's Reason once the link has dropped; nil while it is up. It is
    /// set before the ATT bearer's sends and the other sends waiting on the link fail, so one
    /// that fails finds it (``disconnected()`` may return a little later).
    public var disconnectionReason: HCIStatus? { reason.value ?? ended.value }

    /// Waits until the link drops and returns the Reason (0x08 Connection Timeout, 0x13 Remote
    /// User Terminated Connection, 0x16 Connection Terminated By Local Host, ...; 0x03 Hardware
    /// Failure when the controller or the transport failed).
    public func disconnected() async -> HCIStatus { await ended.wait() }

    /// Ends the link with HCI_Disconnect (Vol 4, Part E, 7.1.6) and waits for its Disconnection
    /// Complete. The command is sent, and its end awaited, even when the calling task is
    /// cancelled: cleanup code that ends a link must end it.
    ///
    /// A call made while another's HCI_Disconnect of the link is under way sends nothing: it
    /// ends as that one does, with its Reason.
    ///
    /// - Parameter reason: what the peer is told: 0x13 Remote User Terminated Connection by
    ///   default; 0x05, 0x14, 0x15, 0x1A, 0x29 or 0x3B otherwise.
    /// - Returns: the Reason this side's Disconnection Complete gave (normally 0x16 Connection
    ///   Terminated By Local Host), or the earlier reason when the link had already dropped.
    /// - Throws: ``LEConnectionError/command(_:)`` when the controller refuses the command, or
    ///   answers with a Disconnection Complete whose Status says the disconnection failed (the
    ///   link stays up, 7.7.5; such an event ends every disconnect call of the link waiting
    ///   then, as it names no command);
    ///   ``LEConnectionError/procedureTimeout(_:)`` when the controller accepted it but sent no
    ///   Disconnection Complete within the link's supervision timeout plus the manager's
    ///   procedure timeout (the termination procedure ends within the supervision timeout,
    ///   Vol 6, Part B, 5.1.3): the link is then taken as ended here, with Unspecified Error
    ///   (0x1F), which ``disconnected()`` returns; ``LEConnectionError/ended(_:)`` when the
    ///   manager has ended.
    @discardableResult
    public func disconnect(reason: HCIStatus = .remoteUserTerminatedConnection) async throws(LEConnectionError) -> HCIStatus {
        try await manager.disconnect(self, reason: reason)
    }

    /// Takes the link as ended on this side without the controller: the last resort of a host
    /// that must let go of a link the controller will not end (it refused HCI_Disconnect, or
    /// answered with a failed Disconnection Complete, 7.7.5). Its pending work ends with
    /// ``LEConnectionError/disconnected(reason:)``, ``disconnected()`` returns Unspecified Error
    /// (0x1F), and a later Disconnection Complete for it is ignored. Its ACL credits come back
    /// as a Disconnection Complete would give them (4.1.1): a controller that kept the link and
    /// its packets may then be sent more than it buffers. Does nothing once the link has ended.
    public func abandon() async {
        await manager.abandon(self)
    }

    /// Asks for new connection parameters. As central: HCI_LE_Connection_Update (Vol 4, Part E,
    /// 7.8.18), returning when LE Connection Update Complete reports the new values; one update
    /// of the link at a time (a later call, or a peripheral's accepted request, waits its turn),
    /// so each completion answers its own update. As peripheral: L2CAP_CONNECTION_PARAMETER_UPDATE_REQ (Vol 3, Part A, 4.20), returning when
    /// the central accepts (the central then updates the link; ``state`` follows).
    ///
    /// - Throws: ``LEConnectionError/invalidParameters(_:)`` before anything is sent;
    ///   ``LEConnectionError/parametersRejected``; ``LEConnectionError/procedureTimeout(_:)``;
    ///   ``LEConnectionError/signalingIdentifiersInUse`` as peripheral when 255 requests already
    ///   wait for the central's answers; ``LEConnectionError/command(_:)``; ``LEConnectionError/connectionFailed(_:)`` with the
    ///   update's failing Status; ``LEConnectionError/disconnected(reason:)``.
    public func updateParameters(_ parameters: LEConnectionParametersRequest) async throws(LEConnectionError) {
        try await manager.updateParameters(self, parameters)
    }

    /// HCI_Read_RSSI (Vol 4, Part E, 7.5.4): the link's received signal strength, in dBm.
    ///
    /// - Throws: ``LEConnectionError/command(_:)``; ``LEConnectionError/disconnected(reason:)``.
    public func readRSSI() async throws(LEConnectionError) -> Int8 {
        try await manager.readRSSI(self)
    }

    /// HCI_LE_Set_Data_Length (Vol 4, Part E, 7.8.33): asks the controller to send link-layer
    /// payloads of up to `txOctets` octets (27...251), taking at most `txTime` µs
    /// (328...17040; by default the time of `txOctets` on LE 1M). ``state`` follows the LE Data
    /// Length Change event.
    ///
    /// - Throws: ``LEConnectionError/invalidParameters(_:)``; ``LEConnectionError/command(_:)``.
    public func setDataLength(txOctets: UInt16, txTime: UInt16? = nil) async throws(LEConnectionError) {
        try await manager.setDataLength(self, txOctets: txOctets, txTime: txTime)
    }

    /// HCI_LE_Set_PHY (Vol 4, Part E, 7.8.49): asks for `phys` in both directions and waits for
    /// LE PHY Update Complete.
    ///
    /// - Returns: the transmitter and receiver PHYs now in use.
    /// - Throws: ``LEConnectionError/command(_:)``; ``LEConnectionError/connectionFailed(_:)``
    ///   with the update's failing Status; ``LEConnectionError/disconnected(reason:)``.
    @discardableResult
    public func setPHY(_ phys: LEPHYs) async throws(LEConnectionError) -> (tx: LEPHY, rx: LEPHY) {
        try await manager.setPHY(self, phys)
    }

    /// "handle 0x0040, central, peer C3:11:22:33:44:55 (random)".
    public var description: String {
        "handle 0x\(String(handle, radix: 16, uppercase: true)), \(role), peer \(peerAddress) (\(peerAddressType == .public ? "public" : "random"))"
    }
}
