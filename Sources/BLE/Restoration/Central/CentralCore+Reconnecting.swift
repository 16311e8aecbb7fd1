import BLECore
import Foundation
import GATT
import Synchronization

/// The reconnection of restored peripherals (docs/state-restoration.md):
/// one connect at a time through the controller's Filter Accept List holding the peripherals
/// still waiting (Core v5.4, Vol 6, Part B, 4.3.1), so each is reconnected as soon as it
/// advertises, without a scan. A connect the application makes pauses it: the controller
/// initiates one link at a time.
extension CentralCore {
    /// How long one Filter Accept List attempt runs before it is made again (with the
    /// peripherals then waiting): 60 s, on the mode's clock.
    static let reconnectionWindow: Duration = .seconds(60)

    /// Starts the reconnector unless it runs or nothing waits.
    func startReconnecting() {
        guard !reconnecting, !reconnections.isEmpty, backend != nil, !closed else { return }
        reconnecting = true
        Task { await self.reconnect() }
    }

    /// Connects the waiting peripherals, one link at a time, until none waits or the mode ends.
    private func reconnect() async {
        defer { reconnecting = false }
        while !closed, let backend = self.backend {
            if applicationConnects > 0 {
                await withCheckedContinuation { reconnectionWaiters.append($0) }
                continue
            }
            let capacity = await backend.acceptListCapacity()
            // Checked again after that wait, and nothing suspends from here until the attempt
            // is stored, so an application's connect either finds it (and cancels it) or is
            // seen here.
            guard applicationConnects == 0 else { continue }
            let waiting = reconnections.values.filter { $0.session.withLock { $0 } == nil }
                .sorted { $0.peripheral.address.value < $1.peripheral.address.value }
            guard !waiting.isEmpty else { return }
            // More peripherals than the list holds: take turns, a window each.
            let turn = Array((waiting + waiting).dropFirst(rotation % waiting.count).prefix(min(capacity, waiting.count)))
            rotation &+= capacity
            let peers = turn.map { (address: $0.peripheral.address, addressType: $0.peripheral.addressType.leAddressType) }
            let attempt = Task { () async -> Result<any BackendLink, BLEError> in
                do throws(BLEError) {
                    return .success(try await backend.connect(toAnyOf: peers, timeout: Self.reconnectionWindow))
                } catch {
                    return .failure(error)
                }
            }
            reconnectAttempt = attempt
            let result = await attempt.value
            reconnectAttempt = nil
            switch result {
            case .success(let link):
                let key = PeripheralIdentityKey(address: link.peerAddress, type: Peripheral.AddressType(link.peerAddressType))
                guard let pending = reconnections.values.first(where: {
                    PeripheralIdentityKey(address: $0.peripheral.address, type: $0.peripheral.addressType) == key
                }), pending.session.withLock({ $0 }) == nil else {
                    Task { await link.terminate() }   // cancelled meanwhile
                    continue
                }
                let session = newSession(on: link, clock: backend.clock)
                pending.session.withLock { $0 = session }
                Task { await self.setUp(pending, session: session, backend: backend) }
            case .failure(.connectionTimeout), .failure(.cancelled):
                continue
            case .failure(let error):
                guard !(await backend.hasEnded) else { return }
                restoration?.notRestored("reconnecting through the Filter Accept List failed: \(error); trying again in 10 s")
                try? await backend.clock.sleep(for: .seconds(10))
            }
        }
    }

    /// A connect of the application's is about to start: the reconnector's attempt stops, and
    /// no other starts until ``resumeReconnection()``.
    func pauseReconnection() {
        applicationConnects += 1
        reconnectAttempt?.cancel()
    }

    /// The application's connect has its answer: the reconnector goes on.
    func resumeReconnection() {
        applicationConnects -= 1
        guard applicationConnects == 0 else { return }
        let waiters = reconnectionWaiters
        reconnectionWaiters = []
        for waiter in waiters { waiter.resume() }
    }

    /// The reconnection of `pending` ended (connected, cancelled, the manager ended).
    func reconnectionEnded(_ pending: PendingReconnection, with outcome: Result<Void, BLEError>) {
        let id = pending.peripheral.identifier
        if reconnections[id] === pending { reconnections[id] = nil }
        pending.outcome.resolve(outcome)
    }

    /// Setting `pending`'s link up failed: it waits for the next reconnection, if still wanted.
    func reconnectionFailed(_ pending: PendingReconnection) {
        pending.session.withLock { $0 = nil }
        guard reconnections[pending.peripheral.identifier] === pending else { return }
        reconnectAttempt?.cancel()   // the next attempt's list takes it in again
        startReconnecting()
    }

    /// ``CentralManager/cancelPeripheralConnection(_:)`` of a peripheral being reconnected: it
    /// is disconnected and no longer reconnected; a link being set up ends.
    func cancelReconnection(of peripheral: Peripheral) async {
        guard let pending = reconnections[peripheral.identifier] else { return }
        reconnectionEnded(pending, with: .failure(.cancelled))
        attemptEnded(peripheral, recording: true)
        reconnectAttempt?.cancel()   // the next attempt's list leaves it out
        if let session = pending.session.withLock({ $0 }) {
            await session.backend.terminate()
            await session.settled.wait()
        }
    }

    /// The mode ended or never ran: every reconnection ends with `error`; the state file keeps
    /// them (the writer is frozen).
    func endReconnections(with error: BLEError) {
        reconnectAttempt?.cancel()
        let waiters = reconnectionWaiters
        reconnectionWaiters = []
        for waiter in waiters { waiter.resume() }
        for pending in Array(reconnections.values) {
            reconnectionEnded(pending, with: .failure(error))
            attemptEnded(pending.peripheral, recording: false)
        }
    }
}
