import ATT
import BLECore
import Foundation

/// The peripheral role, as Core Bluetooth's `CBPeripheralManager`, with async calls and streams
/// instead of a delegate: publish services, advertise, answer requests, update subscribers
/// (Core v5.4, Vol 3, Part C, 9.3 and Part G; Vol 6, Part B, 4.4.2).
///
/// ```swift
/// let manager = PeripheralManager(transport: .userChannel(hci: 0))
/// let control = MutableCharacteristic(type: BluetoothUUID("2A39")!, properties: [.write], value: nil, permissions: [.writeable])
/// let service = MutableService(type: BluetoothUUID("180D")!, primary: true)
/// service.characteristics = [control]
/// try await manager.add(service)
/// try await manager.startAdvertising(AdvertisementData(localName: "Sensor", serviceUUIDs: [service.uuid]))
/// for await request in manager.requests {
///     if case .write(let writes) = request { manager.respond(to: writes[0], withResult: .success) }
/// }
/// ```
///
/// **State.** As ``CentralManager``: ``ManagerState/unknown`` while it brings the controller up,
/// then ``ManagerState/poweredOn``; calls that need the controller wait for bring-up, then throw
/// the state's error. Both modes: in kernel mode the manager serves the kernel's L2CAP ATT sockets
/// and advertises through the adapter's raw HCI channel; another process listening on the
/// adapter's ATT channel (bluetoothd) makes it ``ManagerState/unauthorized``, saying so.
///
/// **Restoration.** With ``ManagerOptions/restoreIdentifier``, the manager keeps its published
/// services (types, characteristics with properties, permissions and static values, includes),
/// its advertising data and whether it advertised in ``restorationStateFile``. A new manager with
/// the same identifier publishes them again and advertises again before it is powered on, and
/// says so first on ``events`` (``PeripheralManagerEvent/willRestoreState(_:)``). It keeps no
/// central's Client Characteristic Configuration: without a bond (host mode has no bonding
/// yet) a server must start each connection with it cleared (Core v5.4, Vol 3, Part G,
/// 3.3.3.3), so centrals subscribe again. A damaged or foreign file is set aside and reported;
/// docs/state-restoration.md has the details.
///
/// **Serving.** Every central's link gets the GATT server, with CCCD state per central; a
/// characteristic with a static value is answered by the stack, one with a nil value through
/// ``requests``. A Write Command (write without response) to such a characteristic arrives with
/// ``ATTRequest/writeType`` `.withoutResponse` and waits for no answer. A queued write (a Write
/// Long, or a Reliable Write across characteristics) arrives when the central executes it, as one
/// ``PeripheralRequest/write(_:)`` batch with a request per part, answered once.
public final class PeripheralManager: Sendable {
    /// The manager's options (restoration, state directory, ATT MTU, request deadline).
    public typealias Options = ManagerOptions

    /// The transport given at creation.
    public let transport: Transport
    /// The options given at creation.
    public let options: Options
    let core: PeripheralManagerCore

    /// A manager on `transport`; it starts bringing the controller up at once.
    public init(transport: Transport, options: Options = Options()) {
        self.transport = transport
        self.options = options
        core = PeripheralManagerCore(options: options)
        let core = self.core
        Task { await core.bringUp(transport) }
    }

    deinit {
        let core = self.core
        Task { await core.close() }
    }

    /// The state now.
    public var state: ManagerState { core.broadcast.current }
    /// The state now, then each change; finishes when the manager closes.
    public var stateUpdates: AsyncStream<ManagerState> { core.broadcast.updates() }

    /// What happens to the manager: restoration's ``PeripheralManagerEvent/willRestoreState(_:)``
    /// or ``PeripheralManagerEvent/restorationProblem(_:)`` first, then centrals connecting and
    /// disconnecting, Client Characteristic Configuration and static values they write, kernel
    /// mode's pairing answers, advertising that could not restart, and any later restoration
    /// problem (``PeripheralManagerEvent``). One stream for the manager's life, for one reader
    /// (the newest 1024 kept); it finishes when the manager closes.
    public var events: AsyncStream<PeripheralManagerEvent> { core.events }

    /// The restoration problems so far (the newest 32), oldest first: the same ones ``events``
    /// reports.
    public var restorationProblems: [RestorationProblem] { core.problems.all }

    /// The file this manager keeps its restoration state in:
    /// `<stateDirectory>/peripheralManager-<restoreIdentifier>.json` (the identifier escaped,
    /// docs/state-restoration.md); nil without a restore identifier.
    public var restorationStateFile: URL? { core.restoration?.file.url }

    /// Publishes `service` (with its characteristics and includes) to every central: the
    /// database is rebuilt, and connected centrals hear of the change through Service Changed
    /// and a new Database Hash (Vol 3, Part G, 7.1, 7.3). The added services take handles from
    /// 0x0001; the GAP and GATT services the stack serves sit at 0xFFF1...0xFFFF, where added
    /// services do not reach, so Service Changed keeps its handle (after ``publish(_:)``, they
    /// stay where the published database left them while those handles are free).
    ///
    /// - Throws: ``BLEError/invalidArgument(_:)`` when the service is added already, is a
    ///   primary GAP (0x1800) or GATT (0x1801) service (the stack serves those), or cannot be
    ///   served (a static value over 512 octets, ...); ``BLEError/poweredOff`` (or why the
    ///   manager is not powered on; waits for bring-up first, or throws ``BLEError/cancelled``
    ///   when the calling task is cancelled meanwhile).
    public func add(_ service: MutableService) async throws(BLEError) {
        try await core.add(service)
    }

    /// Stops publishing `service`; connected centrals hear of it as for ``add(_:)``. Includes of
    /// it by other services are dropped. Does nothing for a service not added.
    public func remove(_ service: MutableService) async {
        await core.remove(service)
    }

    /// Stops publishing every service.
    public func removeAllServices() async {
        await core.removeAll()
    }

    /// Advertises `data`, connectable unless ``AdvertisementData/isConnectable`` is false, every
    /// 100-150 ms, and again after each connection (so more centrals can connect); replaces what
    /// was advertised.
    ///
    /// - Throws: ``BLEError/advertisingDataTooLong(needed:available:)`` when the AD structures
    ///   need more octets than the controller's advertising takes (31 with legacy advertising;
    ///   245 for connectable extended advertising, Vol 4, Part E, 7.8.54); ``BLEError/invalidArgument(_:)``
    ///   for data that cannot be encoded; ``BLEError/controllerError(_:)``; ``BLEError/poweredOff``
    ///   (waits for bring-up first); ``BLEError/cancelled`` when the calling task is cancelled
    ///   while it waits.
    public func startAdvertising(_ data: AdvertisementData) async throws(BLEError) {
        try await core.startAdvertising(data)
    }

    /// Stops advertising; does nothing when not advertising.
    public func stopAdvertising() async {
        await core.stopAdvertising()
    }

    /// Whether ``startAdvertising(_:)`` is in effect.
    public var isAdvertising: Bool { core.advertising.withLock { $0 } }

    /// The reads and writes of characteristics with a nil value, for the application to answer
    /// with ``respond(to:withResult:)``, in arrival order. One stream for the manager's life, for
    /// one reader; cancelling the reader's task ends it, and so does a second reader waiting at
    /// the same time (for both). For a reader that falls behind, it keeps
    /// every request that waits for an answer (at most one per link: ATT has each central wait
    /// for the response before its next request, Core v5.4, Vol 3, Part F, 3.3.2), and the
    /// newest 256 writes without response of all centrals, which nothing answers: a central
    /// flooding Write Commands pushes out the oldest commands, never a request. A request still
    /// unread at its deadline is answered with Unlikely Error (0x0E) and taken out of the stream.
    public var requests: AsyncStream<PeripheralRequest> { core.requests }

    /// Answers `request`: with ``ATTErrorCode/success`` the read's ``ATTRequest/value`` (from
    /// its offset) or the write's acceptance goes to the central; with an error code, ATT_ERROR_RSP
    /// with it (Vol 3, Part F, 3.4.1.1). Exactly one response goes out per request: a second
    /// answer, or one after the deadline (``ManagerOptions/requestDeadline``, 10 s, when the stack
    /// answered Unlikely Error, 0x0E), is ignored. For ``PeripheralRequest/write(_:)``, answer its
    /// first request; the answer covers the batch. A write without response
    /// (``ATTRequest/writeType`` `.withoutResponse`) gets no response: answering it does nothing.
    public func respond(to request: ATTRequest, withResult result: ATTError.Code) {
        core.pending.answer(request, with: result)
    }

    /// Centrals subscribing and unsubscribing, in order. One stream for the manager's life, for
    /// one reader; it keeps the newest 1024 events.
    public var subscriptions: AsyncStream<SubscriptionEvent> { core.subscriptions }

    /// Sends `value` to the centrals subscribed to `characteristic` (or to those of `centrals`
    /// that are): a notification to each that enabled notifications, else a confirmed
    /// indication (Vol 3, Part G, 4.10, 4.11), each cut to its ``Central/maximumUpdateValueLength``.
    /// Each central gets its updates in the order accepted. Its indications wait on it alone: one
    /// slow to confirm (one is outstanding at a time, for up to the 30 s ATT transaction
    /// timeout, Vol 3, Part F, 3.3.3) does not delay another central's updates. But an update
    /// counts in the transmit queue until every central it goes to has it (or its link has
    /// ended), so a central that never confirms fills the queue after 32 updates, for everyone,
    /// until its transaction times out and its ATT bearer closes. Updates offered while the
    /// database changes wait until the manager has followed the new handles (not for the
    /// centrals' Service Changed confirmations), and go to the characteristics' new handles; one
    /// for a characteristic removed meanwhile is dropped.
    ///
    /// - Returns: true when queued; false when the transmit queue holds 32 updates already (then
    ///   ``readyToUpdateSubscribers`` says when to try again), or when `characteristic` is not
    ///   published.
    public func updateValue(_ value: Data, for characteristic: MutableCharacteristic, onSubscribedCentrals centrals: [Central]?) -> Bool {
        guard core.valueHandles.withLock({ $0[ObjectIdentifier(characteristic)] }) != nil else { return false }
        let update = UpdateQueue.Update(characteristic: characteristic, value: [UInt8](value), centrals: centrals)
        let (accepted, start) = core.updates.offer(update)
        if start {
            let core = self.core
            Task { await core.sendUpdates() }
        }
        return accepted
    }

    /// Yields each time the transmit queue has drained to 16 updates after
    /// ``updateValue(_:for:onSubscribedCentrals:)`` returned false, so a producer offers at least
    /// 16 more per wake-up (Core Bluetooth's `peripheralManagerIsReady(toUpdateSubscribers:)`);
    /// finishes when the manager closes. Each access gives a stream of its own.
    public var readyToUpdateSubscribers: AsyncStream<Void> { core.updates.readinessUpdates() }

    /// Stops advertising, ends every link, closes the transport, and finishes the streams; the
    /// state becomes ``ManagerState/poweredOff``.
    public func close() async {
        await core.close()
    }
}
