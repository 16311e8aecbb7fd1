import BLECore
import HCI
import Synchronization

extension LEConnectionManager {
    /// The connect call waiting for its LE Connection Complete.
    final class PendingConnect: Sendable {
        let id: UInt64
        private let result = OneShot<Result<LEConnection, LEConnectionError>>()
        /// Set when this host cancels the attempt, to tell the Unknown Connection Identifier
        /// that follows from a real failure.
        let cancelled = OneShot<LEConnectionError>()
        /// The peers this attempt connects to: a link to another address is not its own (an
        /// earlier attempt's, given up on, that the controller reports late). The host asks
        /// the controller to resolve no private address, so a Connection Complete names the
        /// address the attempt gave.
        let peers: Set<BluetoothAddress>
        /// The backstop armed once the controller accepted the cancel (``arm(_:)``).
        private let backstop = Mutex<(task: Task<Void, Never>?, finished: Bool)>((nil, false))

        init(id: UInt64, peers: Set<BluetoothAddress>) {
            self.id = id
            self.peers = peers
        }

        /// Ends the attempt (once) and disarms its backstop.
        func finish(_ outcome: Result<LEConnection, LEConnectionError>) {
            result.resolve(outcome)
            let task = backstop.withLock { state -> Task<Void, Never>? in
                state.finished = true
                defer { state.task = nil }
                return state.task
            }
            task?.cancel()
        }

        func wait() async -> Result<LEConnection, LEConnectionError> { await result.wait() }

        /// Keeps `task` until the attempt ends, then cancels it (at once if it has ended).
        func arm(_ task: Task<Void, Never>) {
            let ended = backstop.withLock { state -> Bool in
                if !state.finished { state.task = task }
                return state.finished
            }
            if ended { task.cancel() }
        }
    }

    /// The scan interval and window an initiator uses (60 ms and 30 ms, in 0.625 ms units).
    static let initiatorScanInterval = LESlotDuration(rawValue: 0x0060)
    static let initiatorScanWindow = LESlotDuration(rawValue: 0x0030)

    /// Connects to the peripheral at `address` as central: HCI_LE_Create_Connection, or
    /// HCI_LE_Extended_Create_Connection on the LE 1M PHY when the controller uses the extended
    /// commands (never both; Core v5.4, Vol 4, Part E, 7.8.12 and 7.8.66), then its LE
    /// (Enhanced) Connection Complete.
    ///
    /// When no connection forms within `timeout`, or the calling task is cancelled, the attempt
    /// is cancelled with HCI_LE_Create_Connection_Cancel (7.8.13) and ends with the LE Connection
    /// Complete whose Status is Unknown Connection Identifier (or, when the controller sends
    /// none, the manager's procedure timeout later). A connection that formed while the cancel
    /// was on its way is returned (after a timeout) or disconnected (after a task cancel).
    /// Calls wait their turn: a controller initiates one connection at a time.
    ///
    /// - Parameters:
    ///   - parameters: the connection interval range, latency and supervision timeout to ask for;
    ///     by default 30-50 ms, latency 0, 4 s.
    ///   - timeout: how long to try; 30 s by default.
    /// - Throws: ``LEConnectionError/connectionTimeout(after:)``, ``LEConnectionError/cancelled``,
    ///   ``LEConnectionError/connectionFailed(_:)``, ``LEConnectionError/invalidParameters(_:)``,
    ///   ``LEConnectionError/command(_:)``, ``LEConnectionError/ended(_:)``.
    public func connect(to address: BluetoothAddress, addressType: LEAddressType,
                        parameters: LEConnectionParametersRequest = .defaultCentral,
                        timeout: Duration = .seconds(30)) async throws(LEConnectionError) -> LEConnection {
        try await initiate(filterPolicy: .peerAddress, peerAddressType: addressType, peerAddress: address,
                           parameters: parameters, timeout: timeout)
    }

    /// Connects to whichever of `peers` is seen advertising first, through the Filter Accept
    /// List (Vol 6, Part B, 4.3.1; HCI_LE_Clear_Filter_Accept_List, HCI_LE_Add_Device_To_Filter_Accept_List,
    /// then a create connection with Initiator_Filter_Policy 0x01): a gateway reconnecting to its
    /// known sensors without scanning. Call it again for the next one.
    ///
    /// - Throws: as ``connect(to:addressType:parameters:timeout:)``; ``LEConnectionError/command(_:)``
    ///   with Memory Capacity Exceeded when `peers` is longer than the controller's list.
    public func connect(toAnyOf peers: [(address: BluetoothAddress, addressType: LEAddressType)],
                        parameters: LEConnectionParametersRequest = .defaultCentral,
                        timeout: Duration = .seconds(30)) async throws(LEConnectionError) -> LEConnection {
        guard !peers.isEmpty else { throw .invalidParameters("no peers to connect to") }
        try await takeConnectTurn()
        defer { releaseConnectTurn() }
        do {
            try await flow.send(HCILEClearFilterAcceptList())
            for peer in peers {
                try await flow.send(HCILEAddDeviceToFilterAcceptList(addressType: peer.addressType, address: peer.address))
            }
        } catch {
            throw .command(error)
        }
        return try await initiateInTurn(filterPolicy: .filterAcceptList, peerAddressType: .public, peerAddress: .zero,
                                        peers: Set(peers.map(\.address)), parameters: parameters, timeout: timeout)
    }

    private func initiate(filterPolicy: LEInitiatorFilterPolicy, peerAddressType: LEAddressType, peerAddress: BluetoothAddress,
                          parameters: LEConnectionParametersRequest, timeout: Duration) async throws(LEConnectionError) -> LEConnection {
        try await takeConnectTurn()
        defer { releaseConnectTurn() }
        return try await initiateInTurn(filterPolicy: filterPolicy, peerAddressType: peerAddressType, peerAddress: peerAddress,
                                        peers: [peerAddress], parameters: parameters, timeout: timeout)
    }

    /// - Parameter peers: the addresses whose LE Connection Complete ends this attempt.
    private func initiateInTurn(filterPolicy: LEInitiatorFilterPolicy, peerAddressType: LEAddressType, peerAddress: BluetoothAddress,
                                peers: Set<BluetoothAddress>, parameters: LEConnectionParametersRequest, timeout: Duration) async throws(LEConnectionError) -> LEConnection {
        if let violation = parameters.violation { throw .invalidParameters(violation) }
        if let endCause { throw .ended(endCause) }
        // Cancelled as the turn came (or while the Filter Accept List was written): the
        // Create Connection, which no cancellation stops once sent, is not begun.
        if Task.isCancelled { throw .cancelled }
        nextOperationID &+= 1
        let pending = PendingConnect(id: nextOperationID, peers: peers)
        pendingConnect = pending
        let own = controller.ownAddressType
        let command: any HCICommand
        switch controller.capabilities.commandFamily {
        case .legacy:
            command = HCILECreateConnection(leScanInterval: Self.initiatorScanInterval, leScanWindow: Self.initiatorScanWindow,
                                            initiatorFilterPolicy: filterPolicy, peerAddressType: peerAddressType,
                                            peerAddress: peerAddress, ownAddressType: own, connectionParameters: parameters.hciParameters)
        case .extended:
            command = HCILEExtendedCreateConnection(
                initiatorFilterPolicy: filterPolicy, ownAddressType: own, peerAddressType: peerAddressType, peerAddress: peerAddress,
                initiatingPHYs: .le1M,
                phyParameters: [.init(scanInterval: Self.initiatorScanInterval, scanWindow: Self.initiatorScanWindow,
                                      connectionParameters: parameters.hciParameters)])
        }
        // Beyond the caller's cancellation: a Create Connection already on its way would
        // otherwise be abandoned with the controller still initiating. A cancellation meanwhile
        // is taken up below, by the cancellation handler, which ends the attempt at the
        // controller (LE Create Connection Cancel, Vol 4, Part E, 7.8.13).
        do {
            try await flow.sendIgnoringCancellation(command)
        } catch {
            if pendingConnect === pending { pendingConnect = nil }
            throw .command(error)
        }
        let timer = TimeoutSleep.timer(after: timeout, on: clock) { [weak self] in
            await self?.cancelAttempt(pending, because: .connectionTimeout(after: timeout))
        }
        let outcome = await withTaskCancellationHandler {
            await pending.wait()
        } onCancel: {
            Task { await self.cancelAttempt(pending, because: .cancelled) }
        }
        timer.cancel()
        switch outcome {
        case .success(let connection):
            if pending.cancelled.value == .cancelled {
                _ = try? await connection.disconnect()
                throw .cancelled
            }
            return connection
        case .failure(let error):
            throw error
        }
    }

    /// Cancels attempt `pending` (a timeout or a cancelled task) with HCI_LE_Create_Connection_Cancel.
    ///
    /// Once the controller has taken the cancel, it owes the attempt's LE Connection Complete
    /// (Unknown Connection Identifier, or the link that formed meanwhile; Vol 4, Part E,
    /// 7.8.13). One that sends none within the procedure timeout does not keep the caller
    /// waiting: the attempt ends with `reason`, and a link reported later comes on
    /// ``incomingConnections``, no call waiting for it.
    private func cancelAttempt(_ pending: PendingConnect, because reason: LEConnectionError) async {
        guard pendingConnect === pending, pending.cancelled.resolve(reason) else { return }
        do {
            try await flow.sendIgnoringCancellation(HCILECreateConnectionCancel())
        } catch .status(.commandDisallowed, _) {
            // No attempt to cancel: the connection has formed, and its event is on its way.
        } catch {
            // The controller will not answer: end the attempt here.
            abandon(pending, because: reason)
            return
        }
        pending.arm(TimeoutSleep.timer(after: configuration.procedureTimeout, on: clock) { [weak self] in
            await self?.abandon(pending, because: reason)
        })
    }

    /// Ends attempt `pending` with `reason`, when it is still the one waiting for its event.
    private func abandon(_ pending: PendingConnect, because reason: LEConnectionError) {
        guard pendingConnect === pending else { return }
        pendingConnect = nil
        pending.finish(.failure(reason))
    }

    /// A central LE Connection Complete with a non-zero Status.
    ///
    /// Unknown Connection Identifier is how an attempt cancelled with
    /// HCI_LE_Create_Connection_Cancel ends (Vol 4, Part E, 7.8.13): for an attempt this host
    /// has not cancelled, it is the late answer to an earlier attempt's cancel, given up on
    /// after the procedure timeout (``cancelAttempt(_:because:)``), and is ignored.
    func centralAttemptFailed(_ status: HCIStatus) {
        guard let pending = pendingConnect else { return }
        let reason: LEConnectionError
        if status == .unknownConnectionIdentifier {
            guard let cancelled = pending.cancelled.value else { return }
            reason = cancelled
        } else {
            reason = .connectionFailed(status)
        }
        pendingConnect = nil
        pending.finish(.failure(reason))
    }

    /// Waits for the controller's one initiator, first come first served. A cancelled caller
    /// stops waiting at once (``LEConnectionError/cancelled``), rather than behind another
    /// peer's attempt for as long as that takes.
    private func takeConnectTurn() async throws(LEConnectionError) {
        while connectTurnHeld {
            if let endCause { throw .ended(endCause) }
            if Task.isCancelled { throw .cancelled }
            nextOperationID &+= 1
            let id = nextOperationID
            // The handler's task needs the actor, which this call holds until the waiter is in.
            let woken = await withTaskCancellationHandler {
                await withCheckedContinuation { connectTurnWaiters.append((id, $0)) }
            } onCancel: {
                Task { await self.abandonConnectTurnWait(id) }
            }
            if !woken { throw .cancelled }
        }
        if let endCause { throw .ended(endCause) }
        connectTurnHeld = true
    }

    private func releaseConnectTurn() {
        connectTurnHeld = false
        if !connectTurnWaiters.isEmpty { connectTurnWaiters.removeFirst().waiter.resume(returning: true) }
    }

    /// The caller waiting for the turn as `id` was cancelled.
    private func abandonConnectTurnWait(_ id: UInt64) {
        guard let index = connectTurnWaiters.firstIndex(where: { $0.id == id }) else { return }
        connectTurnWaiters.remove(at: index).waiter.resume(returning: false)
    }
}

extension LEConnectionParametersRequest {
    /// What a central asks for by default: interval 30-50 ms (24...40 × 1.25 ms), latency 0,
    /// supervision timeout 4 s.
    public static let defaultCentral = LEConnectionParametersRequest(intervalMin: 24, intervalMax: 40, latency: 0, timeout: 400)
}
