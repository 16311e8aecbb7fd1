import ATT
import BLECore
import Foundation
import GATT
import Host
import HCI
import Synchronization

/// One connection of a ``Peripheral``: the mode's link, the GATT client on its ATT bearer (one
/// per connection, never per device), and everything pending on it, so that the link's end
/// ends each pending call and each stream exactly once with ``BLEError/disconnected(_:)``.
final class PeripheralLink: Sendable {
    /// Numbers the connections of the process, whatever their manager; attributes discovered
    /// on one carry it, so that one from another connection (of this peripheral, or of another
    /// manager's) is refused rather than used at its handle here.
    let generation: UInt64

    /// The number of the last connection made in this process.
    private static let lastGeneration = Atomic<UInt64>(0)

    /// A number no other connection of the process has had.
    static func nextGeneration() -> UInt64 {
        lastGeneration.wrappingAdd(1, ordering: .relaxed).newValue
    }
    /// The mode's link.
    let backend: any BackendLink
    /// The GATT client on the link's ATT bearer (Core v5.4, Vol 3, Part G, 4).
    let client: GATTClient
    /// The link's ATT bearer, counting what it sends.
    let bearer: CountingATTBearer
    /// The calls pending on the link.
    let calls = PendingCalls()
    /// Writes without response waiting for the controller.
    let window = WriteWithoutResponseWindow()
    /// The Reason the link ended with, once it has.
    let ended = OneShot<HCIStatus>()
    /// Set once the manager has taken the link's end in (the peripheral is disconnected).
    let settled = OneShot<Void>()

    /// The Reason once the link is known to be down: the mode's, as soon as the mode reports
    /// the end, before the link's watcher drops it (it first lets the client read what came
    /// before the end), then ``ended``'s.
    var downReason: HCIStatus? { ended.value ?? backend.disconnectionReason }

    /// The notification streams and subscriptions of the link's characteristics.
    let routes = NotificationRoutes()
    /// Turning one characteristic's notifications on and off, in call order (keyed by value
    /// handle): an "off" made while an "on" writes the CCCD waits for it, then undoes it.
    let subscriptionTurns = KeyedTurns<UInt16>()
    /// The streams of ``Peripheral/servicesModified`` on this link; each keeps the newest 64
    /// modifications for a reader that falls behind.
    let modifications = StreamFanOut<[Service]>(bufferingNewest: 64)
    /// The Service Changed ranges applied to the tree (``Peripheral/servicesChanged(_:on:)``),
    /// for a discovery that spans one.
    let treeChanges = Mutex(ServiceChangeLog())
    private let terminating = Mutex(false)

    /// A connection on `backend`, its ATT transaction timer on `clock`; the client keeps the
    /// databases it discovers whole in `cache`, under the peer's identity address (robust
    /// caching, Core v5.4, Vol 3, Part G, 2.5.2).
    init(generation: UInt64, backend: any BackendLink, clock: any Clock<Duration>, cache: any GATTClientCache) {
        self.generation = generation
        self.backend = backend
        bearer = CountingATTBearer(backend.attBearer)
        let engine = ATTEngine(bearer: bearer, clock: clock)
        // Service Changed indications are enabled by the client's whole-database discovery
        // (Peripheral.discoverDatabase()); stepwise discovery leaves them to the application.
        let peer = GATTPeerIdentity(address: backend.peerAddress, isRandom: Peripheral.AddressType(backend.peerAddressType) == .random)
        client = GATTClient(engine: engine, configuration: GATTClient.Configuration(cache: cache, peer: peer,
                                                                                    enablesServiceChangedIndications: true))
    }

    // MARK: Pending calls

    /// Runs `body` as a call pending on the link: it ends with `body`'s result, or with
    /// ``BLEError/disconnected(_:)`` when the link ends first, exactly once. A nil from `body`
    /// leaves the answer to the link's end (the bearer closed under the call).
    func perform<T: Sendable>(_ body: @escaping @Sendable () async -> Result<T, BLEError>?) async throws(BLEError) -> T {
        let result: Result<T, BLEError> = await withCheckedContinuation { continuation in
            let first = FirstResult(continuation)
            switch calls.register({ first.resume(.failure($0)) }) {
            case .failure(let error):
                first.resume(.failure(error))
            case .success(let ticket):
                Task {
                    guard let outcome = await body() else { return }
                    self.calls.remove(ticket)
                    first.resume(outcome)
                }
            }
        }
        return try result.get()
    }

    /// Runs one GATT procedure as a pending call, its errors mapped: in the caller's task, with
    /// no task of its own (``perform(_:)`` needs one to answer a call whose body may outlast the
    /// link; a GATT procedure cannot: the link's end closes the bearer, which ends every request
    /// of the client at once, Core v5.4, Vol 3, Part F, 3.3.3). It ends with the procedure's
    /// result, or with ``BLEError/disconnected(_:)`` when the link ends under it, exactly once.
    func gatt<T: Sendable>(_ body: @Sendable (GATTClient) async throws(GATTClientError) -> T) async throws(BLEError) -> T {
        // Registered only to be counted as pending (``Peripheral/pendingCallCount``): the link's
        // end reaches the call through its client.
        let ticket = try calls.register { _ in }.get()
        defer { calls.remove(ticket) }
        if let outcome = await attempt(body) { return try outcome.get() }
        throw .disconnected(await ended.wait())
    }

    /// Runs `body` on the client and maps its outcome; nil when the link's end answers.
    func attempt<T: Sendable>(_ body: @Sendable (GATTClient) async throws(GATTClientError) -> T) async -> Result<T, BLEError>? {
        do {
            return .success(try await body(client))
        } catch {
            return outcome(of: error)
        }
    }

    /// The result for a GATT failure. The bearer closed: the link's end answers, with its
    /// Reason (a link still up is ended first); the link's watcher drops it once the client has
    /// read what came before the end (``untilClientHasRead(within:on:)``). A 30 s timeout ends
    /// the link too (no more ATT on it, Vol 3, Part F, 3.3.3).
    func outcome<T>(of error: GATTClientError) -> Result<T, BLEError>? {
        switch error {
        case .closed:
            if backend.disconnectionReason == nil { terminate() }
            return nil
        case .timeout:
            terminate()
            return .failure(.transactionTimeout)
        default:
            return .failure(Self.error(error))
        }
    }

    /// The BLE error for a GATT client error other than a closed bearer or a timeout.
    static func error(_ error: GATTClientError) -> BLEError {
        switch error {
        case let .errorResponse(_, handle, code): return .att(code, handle: handle)
        case .protocolViolation, .prepareWriteMismatch, .noClientCharacteristicConfiguration, .databaseChanged:
            return .protocolError(error.description)
        case .timeout: return .transactionTimeout
        case .closed: return .notConnected
        case .pduTooLarge, .mtuAlreadyExchanged, .notificationsNotSupported, .noSigningKey, .signCounterExhausted, .signingFailed,
             .invalidArgument:
            return .invalidArgument(error.description)
        }
    }

    /// Ends the link from this side (once); its end then answers what is pending.
    func terminate() {
        let first = terminating.withLock { started -> Bool in
            defer { started = true }
            return !started
        }
        guard first else { return }
        let backend = self.backend
        Task { await backend.terminate() }
    }

    /// Waits until the GATT client has read the bearer to its end, so that every value the
    /// peer sent before the link's end is in the notification streams, for at most `bound` on
    /// `clock`; then closes the client's engine, should it still be open.
    func untilClientHasRead(within bound: Duration, on clock: any Clock<Duration>) async {
        let race = OneShot<Void>()
        let client = self.client
        let reader = Task { await client.waitUntilClosed(); race.resolve(()) }
        let timer = TimeoutSleep.timer(after: bound, on: clock) { race.resolve(()) }
        await race.wait()
        timer.cancel()
        if await !client.isClosed { await client.engine.close() }
        _ = await reader.value
    }

    /// The link dropped with `reason`: every pending call ends with
    /// ``BLEError/disconnected(_:)``, every notification stream finishes with it, writes
    /// waiting for room are released, and characteristics stop notifying. Once.
    func drop(_ reason: HCIStatus) {
        guard ended.resolve(reason) else { return }
        let error = BLEError.disconnected(reason)
        calls.end(with: error)
        window.end()
        routes.end(with: error)
        modifications.finish()
    }
}
