import Foundation
import GATT
import Synchronization

/// One link's notification bookkeeping, per characteristic value handle: the GATT client's
/// subscription (with the task that pumps its values), and the application's streams.
final class NotificationRoutes: Sendable {
    /// Where an application's stream of one characteristic's values goes: values alone
    /// (``Peripheral/notifications(for:)``) or with their kind (``Peripheral/valueUpdates(for:)``).
    enum Stream: Sendable {
        case values(AsyncThrowingStream<Data, any Error>.Continuation)
        case updates(AsyncThrowingStream<ValueUpdate, any Error>.Continuation)

        func yield(_ update: ValueUpdate) {
            switch self {
            case .values(let continuation): continuation.yield(update.value)
            case .updates(let continuation): continuation.yield(update)
            }
        }

        func finish(throwing error: BLEError? = nil) {
            switch self {
            case .values(let continuation): continuation.finish(throwing: error)
            case .updates(let continuation): continuation.finish(throwing: error)
            }
        }
    }

    struct Route {
        let characteristic: Characteristic
        var subscription: GATTClientSubscription?
        /// What the subscription's Client Characteristic Configuration enables.
        var kind: ValueUpdateKind?
        var pump: Task<Void, Never>?
        var token: UInt64 = 0
        var streams: [UInt64: Stream] = [:]
    }

    private struct State {
        var routes: [UInt16: Route] = [:]
        var nextID: UInt64 = 0
        var ended: BLEError?
    }

    private let state = Mutex(State())

    init() {}

    /// A new stream of `characteristic`'s values; finished at once with the link's error once
    /// it has ended.
    func stream(for characteristic: Characteristic) -> AsyncThrowingStream<Data, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: Data.self, throwing: (any Error).self)
        let id = register(.values(continuation), for: characteristic)
        continuation.onTermination = { [weak self] _ in self?.unregister(id, handle: characteristic.remote.valueHandle) }
        return stream
    }

    /// A new stream of `characteristic`'s values with their kind; finished at once with the
    /// link's error once it has ended.
    func updates(for characteristic: Characteristic) -> AsyncThrowingStream<ValueUpdate, any Error> {
        let (stream, continuation) = AsyncThrowingStream.makeStream(of: ValueUpdate.self, throwing: (any Error).self)
        let id = register(.updates(continuation), for: characteristic)
        continuation.onTermination = { [weak self] _ in self?.unregister(id, handle: characteristic.remote.valueHandle) }
        return stream
    }

    /// Registers `stream` for `characteristic`'s values; nil (and `stream` finished with the
    /// link's error) once the link has ended, or with ``BLEError/characteristicNotFound(_:)``
    /// once a Service Changed invalidated `characteristic`. The check is under the lock
    /// ``invalidate(_:with:)`` takes after marking it: a stream registered before is finished
    /// there, one after is refused here, and none holds the handle for a later characteristic.
    private func register(_ stream: Stream, for characteristic: Characteristic) -> UInt64? {
        let handle = characteristic.remote.valueHandle
        let registered: Result<UInt64, BLEError> = state.withLock { state in
            if let ended = state.ended { return .failure(ended) }
            if characteristic.isInvalidated { return .failure(.characteristicNotFound(characteristic.uuid)) }
            state.nextID &+= 1
            state.routes[handle, default: Route(characteristic: characteristic)].streams[state.nextID] = stream
            return .success(state.nextID)
        }
        switch registered {
        case .failure(let error):
            stream.finish(throwing: error)
            return nil
        case .success(let id):
            return id
        }
    }

    private func unregister(_ id: UInt64?, handle: UInt16) {
        guard let id else { return }
        _ = state.withLock { $0.routes[handle]?.streams.removeValue(forKey: id) }
    }

    /// The kind `handle`'s subscription enables; nil without a subscription.
    func subscribedKind(_ handle: UInt16) -> ValueUpdateKind? {
        state.withLock { $0.routes[handle]?.subscription == nil ? nil : $0.routes[handle]?.kind }
    }

    /// Stores `subscription` for `characteristic` with the pump `makePump` makes from its token.
    ///
    /// - Returns: true when stored; false when another subscription is there already;
    ///   the link's error when it has ended; ``BLEError/characteristicNotFound(_:)`` when a
    ///   Service Changed invalidated `characteristic` (checked as ``register(_:for:)`` does).
    func store(_ subscription: GATTClientSubscription, kind: ValueUpdateKind, for characteristic: Characteristic,
               makePump: (UInt64) -> Task<Void, Never>) -> Result<Bool, BLEError> {
        let handle = characteristic.remote.valueHandle
        return state.withLock { state in
            if let ended = state.ended { return .failure(ended) }
            if characteristic.isInvalidated { return .failure(.characteristicNotFound(characteristic.uuid)) }
            guard state.routes[handle]?.subscription == nil else { return .success(false) }
            state.nextID &+= 1
            var route = state.routes[handle] ?? Route(characteristic: characteristic)
            route.subscription = subscription
            route.kind = kind
            route.token = state.nextID
            route.pump = makePump(state.nextID)
            state.routes[handle] = route
            return .success(true)
        }
    }

    /// Takes the subscription of `handle` away and finishes its streams.
    ///
    /// - Returns: the subscription and its pump; nil when there was none.
    func remove(_ handle: UInt16) -> (subscription: GATTClientSubscription, pump: Task<Void, Never>?)? {
        let taken: (GATTClientSubscription, Task<Void, Never>?, [Stream])? = state.withLock { state in
            guard let route = state.routes[handle], let subscription = route.subscription else { return nil }
            state.routes[handle]?.subscription = nil
            state.routes[handle]?.kind = nil
            state.routes[handle]?.pump = nil
            state.routes[handle]?.streams = [:]
            return (subscription, route.pump, Array(route.streams.values))
        }
        guard let taken else { return nil }
        for stream in taken.2 { stream.finish() }
        return (taken.0, taken.1)
    }

    /// `characteristic` is gone from the server's database (Service Changed, Core v5.4, Vol 3,
    /// Part G, 7.1): its route goes, it stops notifying, its streams finish with `error`, and
    /// its subscription ends without a write (``GATTClientSubscription/forget()``): its Client
    /// Characteristic Configuration handle may name another attribute now. The subscription is
    /// forgotten before its pump stops, whose iterator would otherwise write it back to 0.
    func invalidate(_ characteristic: Characteristic, with error: BLEError) {
        let handle = characteristic.remote.valueHandle
        let route: Route? = state.withLock { state in
            guard let route = state.routes[handle], route.characteristic === characteristic else { return nil }
            state.routes[handle] = nil
            return route
        }
        guard let route else { return }
        characteristic.setNotifying(false)
        for stream in route.streams.values { stream.finish(throwing: error) }
        let pump = route.pump, subscription = route.subscription
        Task {
            await subscription?.forget()
            pump?.cancel()
        }
    }

    /// Whether the subscription with `token` is still the one of `handle`.
    func isCurrent(_ handle: UInt16, token: UInt64) -> Bool {
        state.withLock { $0.routes[handle]?.token == token && $0.routes[handle]?.subscription != nil }
    }

    /// A notified or indicated value for the characteristic at `handle`: kept as its value, and
    /// given to each of its streams.
    func deliver(_ value: [UInt8], isIndication: Bool, handle: UInt16) {
        let update = ValueUpdate(value: Data(value), kind: isIndication ? .indication : .notification)
        let (characteristic, streams) = state.withLock { state in
            (state.routes[handle]?.characteristic, state.routes[handle].map { Array($0.streams.values) } ?? [])
        }
        characteristic?.setValue(update.value)
        for stream in streams { stream.yield(update) }
    }

    /// The link ended with `error`: pumps stop, characteristics stop notifying, every stream
    /// finishes with `error`, and later streams finish with it at once.
    func end(with error: BLEError) {
        let routes = state.withLock { state -> [Route] in
            state.ended = error
            defer { state.routes = [:] }
            return Array(state.routes.values)
        }
        for route in routes {
            route.pump?.cancel()
            route.characteristic.setNotifying(false)
            for stream in route.streams.values { stream.finish(throwing: error) }
        }
    }
}
