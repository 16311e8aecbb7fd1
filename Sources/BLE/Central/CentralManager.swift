import BLECore
import Foundation

/// The central role, as Core Bluetooth's `CBCentralManager`, with async calls and streams
/// instead of a delegate: scan, connect, and get ``Peripheral``s to run GATT on (Core v5.4,
/// Vol 3, Part C, 9.3; Vol 6, Part B, 4.4 and 4.5).
///
/// ```swift
/// let central = CentralManager(transport: .userChannel(hci: 0))
/// for await state in central.stateUpdates where state == .poweredOn { break }
/// for try await discovery in central.scanForPeripherals(withServices: [BluetoothUUID("180D")!]) {
///     try await central.connect(discovery.peripheral)            // ends the scan's iteration below
///     break
/// }
/// ```
///
/// **State.** The manager starts ``ManagerState/unknown`` and opens its transport and brings
/// the controller up by itself; ``stateUpdates`` says when it is ``ManagerState/poweredOn``.
/// ``scanForPeripherals(withServices:options:)`` and ``connect(_:options:)`` wait for that
/// bring-up, then fail at once unless powered on, with the reason (``BLEError/unsupported(_:)``,
/// ``BLEError/unauthorized(_:)``, ``BLEError/poweredOff``); a ``connect(_:options:)`` whose
/// task is cancelled while it waits stops waiting, with ``BLEError/cancelled``.
///
/// **Modes.** Host mode (``Transport/userChannel(hci:)``, ``Transport/serial(path:baudRate:flowControl:)``,
/// ``Transport/tcp(host:port:)``, ``Transport/virtual(_:)``) runs this package's own host stack.
/// Kernel mode (``Transport/kernel(hci:)``) runs on the kernel's L2CAP ATT sockets, with
/// scanning, RSSI and disconnecting on the adapter's raw HCI channel (CAP_NET_RAW); an adapter
/// that is down is ``ManagerState/poweredOff`` (docs/core-bluetooth.md, "Kernel mode and host mode").
///
/// **Restoration.** With ``ManagerOptions/restoreIdentifier``, the manager keeps its state in a
/// file in ``ManagerOptions/stateDirectory`` (``restorationStateFile``): the peripherals it
/// connected, which were connected or connecting, each one's discovered database and Database
/// Hash, what was notifying, and the scan. A new manager with the same identifier (after the
/// process was killed, say) delivers ``CentralEvent/willRestoreState(_:)`` first on ``events``,
/// reconnects those peripherals as they show up, without a scan (the Filter Accept List), reuses
/// each cached database when its Database Hash is unchanged (one ATT round trip) and rediscovers
/// it otherwise, writes the Client Characteristic Configuration descriptors again, and resumes
/// the scan. A damaged or foreign file is set aside and reported (``CentralEvent/restorationProblem(_:)``,
/// ``restorationProblems``), never trusted. Ending the manager (``close()``, its release, its
/// controller going away) keeps the file as it was, as a kill would; cancel connections and stop
/// the scan first to leave nothing to restore. docs/state-restoration.md has the file's layout.
///
/// **Lifetime.** Keep the manager while you use it: when it is released (or ``close()`` is
/// called), its links end, its scan's stream finishes and its transport closes.
public final class CentralManager: Sendable {
    /// The manager's options (restoration, state directory, ATT MTU).
    public typealias Options = ManagerOptions

    /// The transport given at creation.
    public let transport: Transport
    /// The options given at creation.
    public let options: Options
    let core: CentralCore

    /// A manager on `transport`; it starts bringing the controller up at once.
    public init(transport: Transport, options: Options = Options()) {
        self.transport = transport
        self.options = options
        core = CentralCore(options: options)
        let core = self.core
        Task { await core.bringUp(transport) }
    }

    deinit {
        let core = self.core
        Task { await core.close() }
    }

    /// The state now.
    public var state: ManagerState { core.broadcast.current }

    /// The state now, then each change; finishes when the manager closes. Each access gives a
    /// stream of its own.
    public var stateUpdates: AsyncStream<ManagerState> { core.broadcast.updates() }

    /// Connections and disconnections of this manager's peripherals, in order, after
    /// restoration's ``CentralEvent/willRestoreState(_:)`` or ``CentralEvent/restorationProblem(_:)``
    /// when there is one. One stream for the manager's life, for one reader; it keeps the newest
    /// 1024 events for a reader that falls behind, and finishes when the manager closes.
    public var events: AsyncStream<CentralEvent> { core.events }

    /// The restoration problems so far (the newest 32), oldest first: the same ones
    /// ``events`` reports as ``CentralEvent/restorationProblem(_:)``.
    public var restorationProblems: [RestorationProblem] { core.problems.all }

    /// The file this manager keeps its restoration state in:
    /// `<stateDirectory>/central-<restoreIdentifier>.json` (the identifier escaped,
    /// docs/state-restoration.md); nil without a restore identifier.
    public var restorationStateFile: URL? { core.restoration?.file.url }

    /// Whether a scan runs.
    public var isScanning: Bool { core.isScanning.withLock { $0 } }

    /// Scans for advertising peripherals, actively unless ``ScanOptions/scanType`` says passive
    /// (Vol 6, Part B, 4.4.3; LE Set Scan Parameters and Enable, or their extended forms, Vol 4,
    /// Part E, 7.8.10-11 and 7.8.64-65).
    ///
    /// Ending the stream's iteration (leaving the loop, cancelling its task) stops the scan, as
    /// do ``stopScan()`` and a newer call of this method (this stream then finishes).
    ///
    /// - Parameters:
    ///   - serviceUUIDs: deliver only peripherals that list one of these services in their
    ///     advertising data or scan response; nil (or empty) for every peripheral.
    ///   - options: duplicates and solicited services (``ScanOptions``).
    /// - Returns: the discoveries; the stream throws ``BLEError/poweredOff`` (or the reason the
    ///   manager is not powered on) when it cannot scan or the controller goes away meanwhile,
    ///   and ``BLEError/controllerError(_:)`` when the controller refuses to scan.
    public func scanForPeripherals(withServices serviceUUIDs: [BluetoothUUID]?, options: ScanOptions = ScanOptions())
        -> AsyncThrowingStream<Discovery, any Error> {
        core.makeScan(services: serviceUUIDs, options: options)
    }

    /// Stops the scan, if one runs, and returns once the controller has answered the disable
    /// (HCI_LE_Set_Scan_Enable or HCI_LE_Set_Extended_Scan_Enable, Vol 4, Part E, 7.8.11,
    /// 7.8.65); the scan's stream finishes first. Does nothing when no scan runs.
    ///
    /// - Throws: ``BLEError/controllerError(_:)`` when the controller refused to stop scanning
    ///   (it may still be scanning; the text names the command and the status). A refusal when
    ///   the scan ends otherwise (its stream's iteration ended, a newer scan) is not reported.
    public func stopScan() async throws(BLEError) {
        try await core.stopScan()
    }

    /// Connects to `peripheral` as central (LE Create Connection, or its extended form, Vol 4,
    /// Part E, 7.8.12 and 7.8.66), then exchanges the ATT MTU (Vol 3, Part G, 4.3.1). A
    /// peripheral retrieved by identifier is connected without scanning. Returns at once when
    /// already connected; a call made while connecting waits for that attempt, within its own
    /// timeout and cancellation (neither ends the attempt, which is not its own); a call made
    /// while disconnecting waits for the old link's end (within its supervision timeout) the
    /// same way, then connects anew. A scan whose iteration has just ended is stopped at the
    /// controller before the connection starts.
    ///
    /// - Throws: ``BLEError/connectionTimeout`` after ``ConnectOptions/timeout`` (the attempt is
    ///   cancelled with LE Create Connection Cancel, 7.8.13); ``BLEError/cancelled`` when
    ///   ``cancelPeripheralConnection(_:)`` or the task's cancellation ended it (at once, also
    ///   while the MTU exchange waits for the peer: the link is terminated);
    ///   ``BLEError/connectionFailed(_:)``; ``BLEError/disconnected(_:)`` when the link dropped
    ///   before it was ready; ``BLEError/invalidArgument(_:)`` for another manager's
    ///   peripheral; ``BLEError/poweredOff`` (or why the manager is not powered on; waits for
    ///   bring-up first).
    public func connect(_ peripheral: Peripheral, options: ConnectOptions = ConnectOptions()) async throws(BLEError) {
        try await core.connect(peripheral, options: options)
    }

    /// Ends `peripheral`'s link (HCI_Disconnect with Remote User Terminated Connection, Vol 4,
    /// Part E, 7.1.6), or its connection attempt, and returns once it has ended. Its pending
    /// calls end with ``BLEError/disconnected(_:)`` (0x16 Connection Terminated By Local
    /// Host); ``events`` reports the disconnection without an error. Does nothing when it is
    /// not connected.
    public func cancelPeripheralConnection(_ peripheral: Peripheral) async {
        await core.cancelConnection(peripheral)
    }

    /// The peripherals with these identifiers, in order: known ones, and for an identifier made
    /// by ``Peripheral/identifier(for:type:)`` (on any run) a peripheral for the address it
    /// names, ready to connect without scanning. Identifiers that name no address are skipped.
    public func retrievePeripherals(withIdentifiers identifiers: [UUID]) -> [Peripheral] {
        core.retrieve(identifiers)
    }

    /// The peripherals connected now whose discovered services include one of `serviceUUIDs`
    /// (all connected ones when it is empty).
    public func retrieveConnectedPeripherals(withServices serviceUUIDs: [BluetoothUUID]) -> [Peripheral] {
        let wanted = Set(serviceUUIDs)
        return core.registry.all.filter { peripheral in
            guard peripheral.state == .connected else { return false }
            return wanted.isEmpty || (peripheral.services ?? []).contains { wanted.contains($0.uuid) }
        }
    }

    /// Ends the scan and every link, closes the transport, and finishes ``stateUpdates`` and
    /// ``events``; the state becomes ``ManagerState/poweredOff``. Later calls throw
    /// ``BLEError/poweredOff``.
    public func close() async {
        await core.close()
    }
}
