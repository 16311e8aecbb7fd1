import ATT
import BLECore
import HCI
import Host

/// What a ``CentralManager`` needs from a mode (kernel mode or host mode, docs/architecture.md):
/// scanning, connecting to an ATT bearer, the link's RSSI and end, and the mode's own end. One
/// implementation per mode; the manager and ``Peripheral`` never know which runs.
protocol CentralBackend: AnyObject, Sendable {
    /// The clock of connection and ATT transaction timeouts (a virtual radio's clock on
    /// ``Transport/virtual(_:)``).
    var clock: any Clock<Duration> { get }

    /// Starts scanning, actively or passively (Core v5.4, Vol 6, Part B, 4.4.3); with
    /// `filterDuplicates` the controller and the host drop reports that change nothing. The
    /// stream finishes when the scan stops or the mode ends.
    ///
    /// - Throws: ``BLEError/controllerError(_:)`` when the controller refuses.
    func startScan(_ type: ScanType, filterDuplicates: Bool) async throws(BLEError) -> AsyncStream<LEDiscovery>

    /// Stops scanning; does nothing when no scan runs. The scan's stream finishes either way.
    ///
    /// - Throws: ``BLEError/controllerError(_:)`` when the controller refuses the disable
    ///   (HCI_LE_Set_Scan_Enable or its extended form answered with an error, Vol 4, Part E,
    ///   7.8.11, 7.8.65): it may still be scanning.
    func stopScan() async throws(BLEError)

    /// Connects as central to the peer at `address` within `timeout`, the link secured to
    /// `security` (``ConnectOptions/security``) before it is returned.
    ///
    /// - Throws: ``BLEError/connectionTimeout``, ``BLEError/connectionFailed(_:)``,
    ///   ``BLEError/cancelled`` (the calling task was cancelled), ``BLEError/poweredOff``,
    ///   ``BLEError/controllerError(_:)``; ``BLEError/unsupported(_:)`` for a level the mode
    ///   cannot reach.
    func connect(to address: BluetoothAddress, addressType: LEAddressType, timeout: Duration,
                 security: SecurityLevel) async throws(BLEError) -> any BackendLink

    /// Connects as central to whichever of `peers` (identity addresses and types) is seen
    /// advertising first, within `timeout`, through the controller's Filter Accept List (Core
    /// v5.4, Vol 6, Part B, 4.3.1): reconnecting known devices without a scan. When `peers` holds
    /// more than the list does, only the first ``acceptListCapacity()`` are tried.
    ///
    /// - Throws: as ``connect(to:addressType:timeout:)``.
    func connect(toAnyOf peers: [(address: BluetoothAddress, addressType: LEAddressType)], timeout: Duration) async throws(BLEError) -> any BackendLink

    /// How many devices the controller's Filter Accept List holds (HCI_LE_Read_Filter_Accept_List_Size,
    /// Vol 4, Part E, 7.8.14), at least 1.
    func acceptListCapacity() async -> Int

    /// Whether the mode has ended (a link dropping then is the mode's end, not the peer's).
    var hasEnded: Bool { get async }

    /// Returns once the mode has ended (the controller reset or went away, or ``close()``),
    /// with the state that follows and the error calls get from then on.
    func ended() async -> BackendEnd

    /// Ends the links and the scan and closes the transport.
    func close() async
}

/// How a mode ended: the manager's state from then on, what its calls throw, and, when the
/// controller can be brought back, how.
struct BackendEnd: Sendable {
    /// The states passed through, in order (``ManagerState/resetting`` then
    /// ``ManagerState/poweredOff`` after a Hardware Error that nothing recovers).
    var states: [ManagerState]
    /// What calls throw from then on (what the pending calls and the scan end with, also when
    /// the mode comes back).
    var error: BLEError
    /// Resets the controller and brings it up again on the same transport (host mode after a
    /// Hardware Error, Core v5.4, Vol 4, Part E, 7.7.16): the mode that follows, or why there
    /// is none. The manager is ``ManagerState/resetting`` meanwhile; nil: the mode is gone for
    /// good and the manager takes ``states``.
    var restart: (@Sendable () async -> Result<any CentralBackend & PeripheralBackend, BackendFailure>)?

    init(states: [ManagerState], error: BLEError,
         restart: (@Sendable () async -> Result<any CentralBackend & PeripheralBackend, BackendFailure>)? = nil) {
        self.states = states
        self.error = error
        self.restart = restart
    }
}

/// One LE link as a mode gives it: its ATT bearer (L2CAP CID 0x0004), its end, its RSSI.
protocol BackendLink: AnyObject, Sendable {
    /// The ATT bearer on the link's fixed channel 0x0004 (Vol 3, Part A, 2.1).
    var attBearer: any ATTBearer { get }
    /// The peer's address.
    var peerAddress: BluetoothAddress { get }
    /// The peer's address type (public or random, or a resolved identity).
    var peerAddressType: LEAddressType { get }
    /// The link's HCI Connection_Handle (Vol 4, Part E, 5.4.2); nil where the mode cannot tell.
    var connectionHandle: UInt16? { get }
    /// The link's timing, data length and PHYs as the controller last reported them; nil where
    /// the mode does not see them (kernel mode: the kernel keeps them).
    var connectionParameters: LEConnectionState? { get }
    /// The Reason of the link's Disconnection Complete once it has dropped; nil while it is up.
    /// Set before ``attBearer`` closes, so a call that finds the bearer closed can name the reason.
    var disconnectionReason: HCIStatus? { get }
    /// Waits until the link drops and returns the Reason (Vol 4, Part E, 7.7.5).
    func disconnected() async -> HCIStatus
    /// Ends the link (HCI_Disconnect with Remote User Terminated Connection, Vol 4, Part E,
    /// 7.1.6) and waits for its end; does nothing more when it has already ended.
    func terminate() async
    /// The link's RSSI in dBm (HCI_Read_RSSI, Vol 4, Part E, 7.5.4).
    ///
    /// - Throws: ``BLEError/disconnected(_:)``, ``BLEError/controllerError(_:)``,
    ///   ``BLEError/unsupported(_:)`` where the mode cannot read it.
    func signalStrength() async throws(BLEError) -> Int
}
