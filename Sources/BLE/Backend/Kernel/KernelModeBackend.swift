import ATT
import BLECore
import Foundation
import HCI
import Host
import LinuxBluetooth
import Synchronization

#if canImport(Glibc)
import Glibc
#endif

/// Kernel mode behind a ``CentralManager`` or a ``PeripheralManager`` (docs/architecture.md):
/// the kernel keeps the controller, its connections, ACL, L2CAP and SMP; the manager's links
/// are the kernel's L2CAP sockets on the ATT fixed channel (Core v5.4, Vol 3, Part A, 2.1), and
/// scanning, advertising, RSSI and disconnecting with a reason go through the adapter's raw HCI
/// channel (Vol 4, Part E), beside the kernel.
///
/// What the process needs: the adapter up with LE (``ManagerState/poweredOff`` otherwise),
/// CAP_NET_RAW for the raw channel's commands (``ManagerState/unauthorized`` without it), and,
/// for a peripheral manager, the adapter's ATT channel free (bluetoothd listens on it).
final class KernelModeBackend: CentralBackend, PeripheralBackend {
    let hci: UInt16
    let adapter: HCIAdapterInfo
    let role: BackendRole
    let clock: any Clock<Duration> = ContinuousClock()
    /// The kernel chooses the adapter's addresses: none of this mode's choosing.
    var staticRandomAddress: BluetoothAddress? { nil }
    /// The raw channel's command flow (Command Complete and Command Status matched to commands).
    let flow: HCICommandFlow
    /// The links centrals made (the peripheral role); finishes when the mode ends.
    let incoming: AsyncStream<any BackendLink>
    /// The pairing agent's answers, and its failure to start (the peripheral role).
    let notices: AsyncStream<PeripheralManagerEvent>

    private let incomingInput: AsyncStream<any BackendLink>.Continuation
    private let noticeInput: AsyncStream<PeripheralManagerEvent>.Continuation
    private let transport: any HCITransport
    private let scanner: LEScanner
    private let advertiser: LEAdvertiser
    private let readvertising: ReadvertisingErrors
    private let listener: L2CAPATTListener?
    private let management: ManagementChannel?
    /// The peripheral role's Just Works agent for every central (``ManagerOptions/acceptsJustWorksPairing``).
    private let pairingAgent = Mutex<JustWorksPairingAgent?>(nil)
    private let attMTU: UInt16
    /// The links up, by connection handle, for their Disconnection Complete. A Disconnection
    /// Complete for a handle not here (another process's link, or one of ours that dropped
    /// before it was registered) is not kept: controllers reuse handles at once, so a kept
    /// Reason would end the next link on that handle. Ours then take the Reason from the
    /// socket's end (``reasonAfterSocketEnd(handle:error:known:)``).
    private let links = Mutex<[UInt16: KernelLink]>([:])
    private let end = OneShot<BackendEnd>()
    private let acceptList = OneShot<Int>()

    private init(hci: UInt16, adapter: HCIAdapterInfo, role: BackendRole, transport: any HCITransport, flow: HCICommandFlow,
                 capabilities: LEControllerCapabilities, listener: L2CAPATTListener?, management: ManagementChannel?, attMTU: UInt16) {
        self.hci = hci
        self.adapter = adapter
        self.role = role
        self.transport = transport
        self.flow = flow
        self.listener = listener
        self.management = management
        self.attMTU = attMTU
        scanner = LEScanner(flow: flow, capabilities: capabilities)
        advertiser = LEAdvertiser(flow: flow, capabilities: capabilities)
        readvertising = ReadvertisingErrors(advertiser: advertiser)
        (incoming, incomingInput) = AsyncStream.makeStream(of: (any BackendLink).self)
        (notices, noticeInput) = AsyncStream.makeStream(of: PeripheralManagerEvent.self)
    }

    var localAddress: (address: BluetoothAddress, type: Peripheral.AddressType) { (adapter.address, .public) }

    func newReadvertisingErrors() async -> [BLEError] { await readvertising.new() }

    /// Opens hci`hci` in kernel mode.
    ///
    /// - Parameters:
    ///   - attMTU: the Rx MTU the links' ATT bearers offer, in octets (23...517).
    ///   - capture: a btsnoop file for the raw channel's packets (``ManagerOptions/captureFile``), or nil.
    ///   - security: the peripheral role's: what the ATT listener requires of every link
    ///     (``ManagerOptions/requiredLinkSecurity``), set as its BT_SECURITY.
    ///   - acceptsJustWorksPairing: the peripheral role's: whether a ``JustWorksPairingAgent``
    ///     confirms the kernel's Just Works pairing with any central (``notices`` tells each answer).
    /// - Throws: ``BackendFailure``: ``ManagerState/unsupported`` without kernel Bluetooth, for
    ///   a missing adapter and for one without LE; ``ManagerState/poweredOff`` for an adapter
    ///   that is down; ``ManagerState/unauthorized`` without CAP_NET_RAW, and (peripheral) when
    ///   another process holds the ATT channel.
    static func start(hci: UInt16, attMTU: UInt16, capture: URL? = nil, role: BackendRole, security: SecurityLevel = .none,
                      acceptsJustWorksPairing: Bool = false) async throws(BackendFailure) -> KernelModeBackend {
        let adapter = try KernelModeOpening.adapter(hci)
        let socket: HCISocketTransport
        do { socket = try HCISocketTransport(adapter: hci) } catch {
            throw KernelModeOpening.failure(error, hci: hci)
        }
        let transport = try await CaptureWrapping.wrap(socket, in: capture)
        let flow = HCICommandFlow(transport: transport)
        let capabilities: LEControllerCapabilities
        do {
            capabilities = try await LEControllerCapabilities.read(from: flow)
        } catch {
            await flow.close()
            await transport.close()
            throw KernelModeOpening.failure(error, hci: hci)
        }
        var listener: L2CAPATTListener?
        if role == .peripheral {
            // Listen before advertising: the kernel hands over only links that come up afterwards.
            do { listener = try L2CAPATTListener(adapter: adapter.address, security: level(security)) } catch {
                await flow.close()
                await transport.close()
                throw KernelModeOpening.listenerFailure(error, hci: hci)
            }
        }
        // The management channel says when the adapter is powered down or removed; without it
        // (an old kernel, a sandbox) the raw channel's end still says when it goes.
        let management: ManagementChannel?
        var managementFailure: ManagementError?
        do { management = try ManagementChannel() } catch {
            management = nil
            managementFailure = error
        }
        let backend = KernelModeBackend(hci: hci, adapter: adapter, role: role, transport: transport, flow: flow,
                                        capabilities: capabilities, listener: listener, management: management, attMTU: attMTU)
        await backend.watchEvents()
        backend.watchManagement()
        backend.watchIncoming()
        if role == .peripheral, acceptsJustWorksPairing {
            backend.startPairingAgent(unavailable: managementFailure.map { "\($0)" } ?? "no management channel")
        }
        return backend
    }

    /// Confirms the kernel's Just Works pairing requests from any central on the management
    /// channel (Core v5.4, Vol 3, Part H, 2.3.5.1), before any central can connect; each answer
    /// goes to ``notices``. Without the channel (it needs CAP_NET_ADMIN), ``notices`` says so,
    /// with `unavailable`, the reason.
    private func startPairingAgent(unavailable: String) {
        guard let management else {
            noticeInput.yield(.pairingAgentUnavailable(unavailable))
            return
        }
        let notices = noticeInput
        let agent = JustWorksPairingAgent(channel: management, index: hci, peer: nil) { peer, error in
            notices.yield(.pairingAnswered(peer.address, error.map { .controllerError("\($0)") }))
        }
        pairingAgent.withLock { $0 = agent }
    }

    // MARK: The mode's end and the links' ends

    /// Disconnection Complete ends its link; a Hardware Error (the kernel resets the controller)
    /// or the raw channel's end ends the mode.
    private func watchEvents() async {
        let events = await flow.events([.event(.disconnectionComplete), .event(.hardwareError)], label: "kernel-mode links")
        Task { [weak self] in
            for await delivery in events {
                guard let self else { return }
                // Read as the kernel reads it: octets after the last parameter are left out.
                guard case .packet(let packet) = delivery, let event = try? HCIEvent.decodingPastTrailingOctets(packet).event else { continue }
                switch event {
                case .disconnectionComplete(let complete) where complete.status.isSuccess:
                    self.linkDropped(complete.connectionHandle, reason: complete.reason)
                case .hardwareError:
                    await self.finish(BackendEnd(states: [.resetting, .poweredOff], error: .poweredOff))
                default:
                    continue
                }
            }
            await self?.finish(BackendEnd(states: [.poweredOff], error: .poweredOff))
        }
    }

    /// New Settings without "powered", or Index Removed (management event 0x0005), for this
    /// adapter ends the mode.
    private func watchManagement() {
        guard let management else { return }
        let events = management.events()
        let hci = self.hci
        Task { [weak self] in
            for await (index, event) in events where index == hci {
                switch event {
                case .newSettings(let settings) where !settings.contains(.powered):
                    await self?.finish(BackendEnd(states: [.poweredOff], error: .poweredOff))
                    return
                case .other(code: 0x0005, _):
                    await self?.finish(BackendEnd(states: [.unsupported], error: .unsupported("hci\(hci) was removed")))
                    return
                default:
                    continue
                }
            }
        }
    }

    /// A peripheral's incoming links, from the listener.
    private func watchIncoming() {
        guard let listener else {
            incomingInput.finish()
            return
        }
        Task { [weak self, incomingInput] in
            for await connection in listener.connections {
                guard let self else { break }
                let link = self.register(connection.bearer, peer: connection.peer, type: connection.peerIsRandom ? .random : .public)
                incomingInput.yield(link)
            }
            incomingInput.finish()
        }
    }

    private func finish(_ ended: BackendEnd) async {
        guard end.resolve(ended) else { return }
        pairingAgent.withLock { $0 }?.stop()
        noticeInput.finish()
        listener?.close()
        await flow.close()
        await transport.close()
        await management?.close()
    }

    private func linkDropped(_ handle: UInt16, reason: HCIStatus) {
        links.withLock { $0.removeValue(forKey: handle) }?.dropped(reason)
    }

    /// A link on `bearer`, registered for its Disconnection Complete.
    private func register(_ bearer: SocketATTBearer, peer: BluetoothAddress, type: LEAddressType) -> KernelLink {
        let link = KernelLink(bearer: bearer, peerAddress: peer, peerAddressType: type, backend: self)
        if let handle = link.handle { links.withLock { $0[handle] = link } }
        return link
    }

    /// Forgets the link `link` on `handle` once it has ended (the handle may belong to a newer
    /// link by then).
    func forget(_ handle: UInt16, link: ObjectIdentifier) {
        links.withLock { links in
            if let current = links[handle], ObjectIdentifier(current) == link { links[handle] = nil }
        }
    }

    /// The Reason of a link whose socket the kernel closed with `error`, unless `known` already
    /// gives it. The controller's Disconnection Complete reaches the raw channel before the
    /// kernel closes the socket, so a command's answer on the raw channel comes after it: one
    /// HCI_Read_RSSI (refused once the handle is gone) is the barrier. Without the event (no
    /// controller answered: the adapter went down), the socket's errno gives it.
    func reasonAfterSocketEnd(handle: UInt16?, error: LinuxBluetoothError?, known: () -> HCIStatus?) async -> HCIStatus {
        if let reason = known() { return reason }
        if let handle, end.value == nil {
            _ = try? await flow.send(HCIReadRSSI(handle: handle))
            if let reason = known() { return reason }
        }
        guard let error else { return .connectionTerminatedByLocalHost }
        return KernelErrno.reason(error.code) ?? .unspecifiedError
    }

    /// HCI_Disconnect on `handle` with Remote User Terminated Connection (Vol 4, Part E, 7.1.6);
    /// a refusal (the link went meanwhile) changes nothing.
    func disconnect(handle: UInt16) async {
        guard links.withLock({ $0[handle] }) != nil else { return }
        _ = try? await flow.send(HCIDisconnect(connectionHandle: handle, reason: .remoteUserTerminatedConnection))
    }

    // MARK: CentralBackend

    func startScan(_ type: ScanType, filterDuplicates: Bool) async throws(BLEError) -> AsyncStream<LEDiscovery> {
        do {
            return try await scanner.start(LEScanParameters(scanType: type.leScanType, filterDuplicates: filterDuplicates))
        } catch {
            throw .controllerError(error.description)
        }
    }

    func stopScan() async throws(BLEError) {
        do {
            try await scanner.stop()
        } catch {
            throw .controllerError(error.description)
        }
    }

    /// Connects through the kernel (it sends LE Create Connection, or the extended one, itself);
    /// `timeout` abandons the attempt by closing the socket, which makes the kernel cancel it.
    /// Above ``SecurityLevel/none`` the socket asks the kernel for that BT_SECURITY level, and a
    /// ``JustWorksPairingAgent`` on the management channel confirms the kernel's Just Works
    /// pairing with this peer for as long as the link lasts (Core v5.4, Vol 3, Part H, 2.3.5.1).
    func connect(to address: BluetoothAddress, addressType: LEAddressType, timeout: Duration,
                 security: SecurityLevel) async throws(BLEError) -> any BackendLink {
        if let ended = end.value { throw ended.error }
        let type: BluetoothAddressType = addressType == .public || addressType == .publicIdentity ? .public : .randomStatic
        let agent = security == .none ? nil : management.map { JustWorksPairingAgent(channel: $0, index: hci, peer: address) }
        do {
            let bearer = try await L2CAPATTChannel.connect(to: address, type: type, from: adapter.address, security: Self.level(security),
                                                           timeout: timeout, maximumMTU: attMTU)
            let link = register(bearer, peer: address, type: type.isRandom ? .random : .public)
            if let agent {
                Task {
                    _ = await link.disconnected()
                    agent.stop()
                }
            }
            return link
        } catch {
            agent?.stop()
            throw Self.connectionError(error, ended: end.value)
        }
    }

    /// The kernel's BT_SECURITY level for `security`: low, medium (encryption) or high (MITM
    /// protection).
    static func level(_ security: SecurityLevel) -> L2CAPATTChannel.Security {
        switch security {
        case .none: return .low
        case .encrypted: return .medium
        case .authenticated: return .high
        }
    }

    /// Connects to whichever of `peers` shows up first: one L2CAP connect per peer at once, which
    /// the kernel serves with its own background scan through the Filter Accept List (Vol 6,
    /// Part B, 4.3.1); the first link wins and the other attempts are abandoned.
    func connect(toAnyOf peers: [(address: BluetoothAddress, addressType: LEAddressType)],
                 timeout: Duration) async throws(BLEError) -> any BackendLink {
        let capacity = await acceptListCapacity()
        let tried = Array(peers.prefix(capacity))
        guard !tried.isEmpty else { throw .invalidArgument("no peer to connect to") }
        let outcome: Result<any BackendLink, BLEError> = await withTaskGroup(of: Result<any BackendLink, BLEError>.self) { group in
            for peer in tried {
                group.addTask {
                    do throws(BLEError) {
                        return .success(try await self.connect(to: peer.address, addressType: peer.addressType, timeout: timeout,
                                                               security: .none))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            var winner: (any BackendLink)?
            var failure: BLEError = .connectionTimeout
            for await result in group {
                switch result {
                case .success(let link):
                    if winner == nil {
                        winner = link
                        group.cancelAll()
                    } else {
                        await link.terminate()   // a second peer came up in the same moment
                    }
                case .failure(let error):
                    if case .cancelled = error { continue }
                    failure = error
                }
            }
            if let winner { return .success(winner) }
            return .failure(Task.isCancelled ? .cancelled : failure)
        }
        return try outcome.get()
    }

    func acceptListCapacity() async -> Int {
        await flow.filterAcceptListCapacity(cachedIn: acceptList)
    }

    var hasEnded: Bool {
        get async { end.value != nil }
    }

    func ended() async -> BackendEnd { await end.wait() }

    // MARK: PeripheralBackend

    func startAdvertising(_ structures: [ADStructure], scanResponse: [ADStructure], connectable: Bool) async throws(BLEError) {
        await stopAdvertising()
        do {
            try await advertiser.start(LEAdvertisingParameters(advertisingData: structures, scanResponse: scanResponse,
                                                               isConnectable: connectable, readvertiseAfterConnection: true))
        } catch {
            throw BLEError(advertising: error)
        }
    }

    func stopAdvertising() async {
        try? await advertiser.stop()
    }

    /// Stops scanning and advertising, ends every link with HCI_Disconnect, and closes the raw
    /// channel, the listener and the management channel.
    func close() async {
        try? await stopScan()
        await stopAdvertising()
        let open = links.withLock { Array($0.values) }
        for link in open { await link.terminate() }
        await finish(BackendEnd(states: [.poweredOff], error: .poweredOff))
    }

    /// The BLE error for a failed L2CAP connect.
    static func connectionError(_ error: LinuxBluetoothError, ended: BackendEnd?) -> BLEError {
        if let ended { return ended.error }
        switch error.code {
        case ETIMEDOUT: return .connectionTimeout
        case ECANCELED: return .cancelled
        case ENETDOWN, EHOSTUNREACH, ENODEV: return .poweredOff
        default:
            if let status = KernelErrno.reason(error.code) { return .connectionFailed(status) }
            return .controllerError(error.description)
        }
    }
}
