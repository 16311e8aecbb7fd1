import ATT
import BLECore
import Foundation
import HCI
import Host

/// Host mode behind a ``CentralManager`` or a ``PeripheralManager``: a ``HostStack`` on the
/// opened transport (bring-up, the router, ACL flow control, L2CAP), its scanner, its
/// advertiser, and its connection manager (Core v5.4, Vol 4, Part E; Vol 3, Part A).
final class HostModeBackend: CentralBackend, PeripheralBackend {
    let stack: HostStack
    let clock: any Clock<Duration>
    let role: BackendRole
    /// The links centrals made (the peripheral role); finishes when the stack ends.
    let incoming: AsyncStream<any BackendLink>
    /// Host mode has no pairing agent to tell of: its SMP answers Pairing Not Supported.
    let notices: AsyncStream<PeripheralManagerEvent>
    private let incomingInput: AsyncStream<any BackendLink>.Continuation
    private let scanner: LEScanner
    private let advertiser: LEAdvertiser
    private let readvertising: ReadvertisingErrors
    private let end = OneShot<BackendEnd>()
    private let acceptList = OneShot<Int>()

    private init(stack: HostStack, clock: any Clock<Duration>, role: BackendRole) {
        self.stack = stack
        self.clock = clock
        self.role = role
        scanner = stack.makeScanner()
        advertiser = stack.makeAdvertiser()
        readvertising = ReadvertisingErrors(advertiser: advertiser)
        (incoming, incomingInput) = AsyncStream.makeStream(of: (any BackendLink).self)
        let (notices, noticeInput) = AsyncStream.makeStream(of: PeripheralManagerEvent.self)
        noticeInput.finish()
        self.notices = notices
    }

    var localAddress: (address: BluetoothAddress, type: Peripheral.AddressType) {
        (stack.controller.address, stack.addressType == .public ? .public : .random)
    }

    func newReadvertisingErrors() async -> [BLEError] { await readvertising.new() }

    /// Opens `transport` and brings its controller up.
    ///
    /// - Parameters:
    ///   - attMTU: the Rx MTU the links' ATT bearers offer, in octets (23...517).
    ///   - capture: a btsnoop file for every HCI packet (``ManagerOptions/captureFile``), or nil.
    ///   - staticRandomAddress: the address to set on a controller without a public one (a
    ///     restored peripheral manager's); nil: a virtual controller's seeded address, else one
    ///     from the system's generator.
    /// - Throws: ``BackendFailure`` with the state and error to report.
    static func start(_ transport: Transport, attMTU: UInt16, capture: URL? = nil,
                      role: BackendRole = .central, staticRandomAddress: BluetoothAddress? = nil) async throws(BackendFailure) -> HostModeBackend {
        let opened = try await HostTransportOpening.open(transport)
        let hci = try await CaptureWrapping.wrap(opened.transport, in: capture)
        let stack: HostStack
        do {
            stack = try await HostStack.start(on: hci, staticRandomAddress: staticRandomAddress ?? opened.staticRandomAddress,
                                              configuration: LEConnectionManager.Configuration(attMTU: attMTU),
                                              commandTimeout: opened.commandTimeout, clock: opened.clock, executor: opened.executor)
        } catch {
            throw HostTransportOpening.failure(error, transport: transport)
        }
        let backend = HostModeBackend(stack: stack, clock: opened.clock, role: role)
        backend.watchIncoming()
        return backend
    }

    /// A central opens links only through ``connect(to:addressType:timeout:)``, so it ends any
    /// other link (a peripheral link, or a central link no call waits for); a peripheral hands
    /// its links to ``incoming``. The stream finishes when the connection manager ends, which
    /// ends this backend.
    private func watchIncoming() {
        let connections = stack.connections
        Task { [end, role, incomingInput, stack, clock] in
            for await link in connections.incomingConnections {
                if role == .peripheral, link.role == .peripheral {
                    incomingInput.yield(link)
                } else {
                    Task { _ = try? await link.disconnect() }
                }
            }
            incomingInput.finish()
            let cause = await connections.ended ?? .transportClosed
            end.resolve(Self.end(cause, of: stack, clock: clock, role: role))
        }
    }

    /// The states and error that follow the end of `stack`'s connection manager. After a
    /// Hardware Error, or connection events lost (the links' state unknown), the controller is
    /// reset and brought up again on the same transport (``HostStack/restart()``, which keeps the
    /// static random address): the manager is ``ManagerState/resetting`` until it is back, then
    /// ``ManagerState/poweredOn`` on the new stack, or ``ManagerState/poweredOff`` when bring-up
    /// fails (the transport is closed then). A closed transport, or the manager closed, is the end.
    static func end(_ cause: LEConnectionManager.EndCause, of stack: HostStack, clock: any Clock<Duration>,
                    role: BackendRole) -> BackendEnd {
        switch cause {
        case .hardwareError, .eventsLost:
            return BackendEnd(states: [.resetting, .poweredOff], error: .poweredOff) {
                do {
                    let next = HostModeBackend(stack: try await stack.restart(), clock: clock, role: role)
                    next.watchIncoming()
                    return .success(next)
                } catch {
                    await stack.close()
                    return .failure(BackendFailure(state: .poweredOff, error: .poweredOff))
                }
            }
        case .transportClosed, .closedByHost:
            return BackendEnd(states: [.poweredOff], error: .poweredOff)
        }
    }

    func startScan(_ type: ScanType, filterDuplicates: Bool) async throws(BLEError) -> AsyncStream<LEDiscovery> {
        do {
            return try await scanner.start(stack.scanParameters(scanType: type.leScanType, filterDuplicates: filterDuplicates))
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

    /// Connects with LE Create Connection (or its extended form); host mode has no SMP yet, so
    /// a link above ``SecurityLevel/none`` cannot be had.
    func connect(to address: BluetoothAddress, addressType: LEAddressType, timeout: Duration,
                 security: SecurityLevel) async throws(BLEError) -> any BackendLink {
        guard security == .none else {
            throw .unsupported("a link with security \(security) needs pairing, which host mode does not do yet (it has no SMP); use kernel mode (.kernel(hci:))")
        }
        do {
            return try await stack.connections.connect(to: address, addressType: addressType, timeout: timeout)
        } catch {
            throw Self.error(error)
        }
    }

    func connect(toAnyOf peers: [(address: BluetoothAddress, addressType: LEAddressType)],
                 timeout: Duration) async throws(BLEError) -> any BackendLink {
        let capacity = await acceptListCapacity()
        do {
            return try await stack.connections.connect(toAnyOf: Array(peers.prefix(capacity)), timeout: timeout)
        } catch {
            throw Self.error(error)
        }
    }

    func acceptListCapacity() async -> Int {
        await stack.flow.filterAcceptListCapacity(cachedIn: acceptList)
    }

    var hasEnded: Bool {
        get async { await stack.connections.ended != nil }
    }

    func startAdvertising(_ structures: [ADStructure], scanResponse: [ADStructure], connectable: Bool) async throws(BLEError) {
        await stopAdvertising()
        do {
            try await advertiser.start(stack.advertisingParameters(advertisingData: structures, scanResponse: scanResponse,
                                                                   isConnectable: connectable))
        } catch {
            throw BLEError(advertising: error)
        }
    }

    func stopAdvertising() async {
        try? await advertiser.stop()
    }

    func ended() async -> BackendEnd { await end.wait() }

    /// The stack's own address when it is static random (a controller without a public one).
    var staticRandomAddress: BluetoothAddress? {
        stack.controller.ownAddressType == .random ? stack.controller.address : nil
    }

    func close() async {
        try? await stopScan()
        await stopAdvertising()
        await stack.close()
    }

    /// The BLE error for a host-mode connection error.
    static func error(_ error: LEConnectionError) -> BLEError {
        switch error {
        case .disconnected(let reason): return .disconnected(reason)
        case .connectionTimeout: return .connectionTimeout
        case .connectionFailed(let status): return .connectionFailed(status)
        case .cancelled, .command(.cancelled): return .cancelled
        case .command(.closed): return .poweredOff
        case .command(let command): return .controllerError(command.description)
        case .wrongRole, .parametersRejected, .procedureTimeout, .signalingIdentifiersInUse: return .controllerError(error.description)
        case .invalidParameters(let why): return .invalidArgument(why)
        case .ended: return .poweredOff
        }
    }
}

extension LEConnection: BackendLink {
    var attBearer: any ATTBearer { att }
    var connectionHandle: UInt16? { handle }
    var connectionParameters: LEConnectionState? { state }

    /// Ends the link with HCI_Disconnect, and waits for its end. A controller that refuses
    /// twice (a refused command, or a failed Disconnection Complete, Vol 4, Part E, 7.7.5) would
    /// leave the link up for ever: it is then let go of here (``LEConnection/abandon()``).
    func terminate() async {
        for _ in 0..<2 {
            do {
                _ = try await disconnect(reason: .remoteUserTerminatedConnection)
                return
            } catch .command {
                continue                // the link is still up
            } catch {
                break                   // it has ended (dropped, the manager ended, or let go of after the timeout)
            }
        }
        if disconnectionReason == nil { await abandon() }
        _ = await disconnected()
    }

    func signalStrength() async throws(BLEError) -> Int {
        do {
            return Int(try await readRSSI())
        } catch .ended {
            throw .disconnected(.hardwareFailure)
        } catch {
            throw HostModeBackend.error(error)
        }
    }
}
