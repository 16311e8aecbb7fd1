import BLECore
import HCI
import Synchronization

/// An ``HCITransport`` that plays a controller from a script, for tests: it checks each packet
/// the host sends against the next ``Step/expect(_:)`` step and delivers the
/// ``Step/inject(_:)`` steps that follow it, as a controller's answers.
///
/// ```swift
/// let transport = ScriptedHCITransport(script: try [
///     .expect(h4: "01 0c 20 02 01 00"),        // LE Set Scan Enable, enable, no duplicate filter
///     .inject(h4: "04 0e 04 01 0c 20 00"),     // Command Complete, 1 credit, Success
/// ])
/// let flow = HCICommandFlow(transport: transport)
/// _ = try await flow.send(HCILESetScanEnable(enable: true))
/// transport.mismatches                          // [] when the host sent what the script expected
/// transport.isFinished                          // true when every step has been played
/// ```
///
/// Injections at the start of the script (or of steps appended while the script is idle) are
/// delivered at once. A packet the host sends that differs from the expected one, or that comes
/// after the script's end, is recorded in ``mismatches`` (the step is consumed all the same, so
/// one slip does not shift every later step). Every packet sent is kept in ``sent``.
///
/// The state sits under a `Mutex`; waiters are resumed after the lock is released.
public final class ScriptedHCITransport: HCITransport {
    /// One step of a script.
    public enum Step: Hashable, Sendable, CustomStringConvertible {
        /// The host is expected to send this packet next.
        case expect(HCIPacket)
        /// The controller sends this packet (delivered once the steps before it are played).
        case inject(HCIPacket)

        /// ``expect(_:)`` for a packet written as an H4 frame in hexadecimal (packet indicator
        /// first; spaces and `#` comments allowed, see `Hex.decode`).
        ///
        /// - Throws: ``BLEDecodingError/invalidValue(field:offset:reason:)`` for "H4 hex" when the
        ///   text is not hexadecimal, otherwise the errors of `HCIPacket(h4:)`.
        public static func expect(h4 hex: String) throws(BLEDecodingError) -> Step {
            .expect(try ScriptedHCITransport.packet(h4: hex))
        }

        /// ``inject(_:)`` for a packet written as an H4 frame in hexadecimal.
        ///
        /// - Throws: as ``expect(h4:)`` does.
        public static func inject(h4 hex: String) throws(BLEDecodingError) -> Step {
            .inject(try ScriptedHCITransport.packet(h4: hex))
        }

        /// "expect" or "inject", then the H4 frame in hexadecimal.
        public var description: String {
            switch self {
            case .expect(let p): return "expect \(Hex.encode(p.h4Encoded, separator: " "))"
            case .inject(let p): return "inject \(Hex.encode(p.h4Encoded, separator: " "))"
            }
        }
    }

    /// Decodes an H4 frame written in hexadecimal.
    ///
    /// - Throws: ``BLEDecodingError/invalidValue(field:offset:reason:)`` for "H4 hex" when the
    ///   text is not hexadecimal, otherwise the errors of `HCIPacket(h4:)`.
    public static func packet(h4 hex: String) throws(BLEDecodingError) -> HCIPacket {
        guard let octets = Hex.decode(hex) else {
            throw .invalidValue(field: "H4 hex", offset: 0, reason: "not hexadecimal: \(hex)")
        }
        return try HCIPacket(h4: octets)
    }

    private struct State {
        var steps: [Step]
        var next = 0
        var sent: [HCIPacket] = []
        var mismatches: [String] = []
        var closed = false
        var sentWaiters: [(count: Int, continuation: CheckedContinuation<Void, Never>)] = []

        /// Consumes the injections at the head of the remaining script.
        mutating func takeInjections() -> [HCIPacket] {
            var out: [HCIPacket] = []
            while next < steps.count, case .inject(let packet) = steps[next] {
                out.append(packet)
                next += 1
            }
            return out
        }

        mutating func satisfiedWaiters() -> [CheckedContinuation<Void, Never>] {
            var ready: [CheckedContinuation<Void, Never>] = []
            sentWaiters.removeAll { waiter in
                guard sent.count >= waiter.count else { return false }
                ready.append(waiter.continuation)
                return true
            }
            return ready
        }
    }

    private let state: Mutex<State>
    private let continuation: AsyncStream<HCIPacket>.Continuation

    /// The packets "from the controller": the script's injections and ``inject(_:)``'s.
    public let packets: AsyncStream<HCIPacket>

    /// A transport that plays `script`; its leading injections are delivered at once.
    public init(script: [Step] = []) {
        let (stream, continuation) = AsyncStream.makeStream(of: HCIPacket.self)
        self.packets = stream
        self.continuation = continuation
        var initial = State(steps: script)
        let injections = initial.takeInjections()
        self.state = Mutex(initial)
        for packet in injections { continuation.yield(packet) }
    }

    /// Checks `packet` against the next step and delivers the injections that follow.
    ///
    /// - Throws: ``HCITransportError/closed`` after ``close()`` or ``finish()``.
    public nonisolated(nonsending) func send(_ packet: HCIPacket) async throws(HCITransportError) {
        let outcome: Result<([HCIPacket], [CheckedContinuation<Void, Never>]), HCITransportError> = state.withLock { state in
            guard !state.closed else { return .failure(.closed) }
            state.sent.append(packet)
            let description = Hex.encode(packet.h4Encoded, separator: " ")
            if state.next < state.steps.count, case .expect(let expected) = state.steps[state.next] {
                if expected != packet {
                    state.mismatches.append("step \(state.next): expected \(Hex.encode(expected.h4Encoded, separator: " ")), host sent \(description)")
                }
                state.next += 1
            } else {
                state.mismatches.append("after the script's end, host sent \(description)")
            }
            return .success((state.takeInjections(), state.satisfiedWaiters()))
        }
        switch outcome {
        case .failure(let error): throw error
        case .success(let (injections, waiters)):
            for injection in injections { continuation.yield(injection) }
            for waiter in waiters { waiter.resume() }
        }
    }

    /// Appends steps to the script; when every earlier step has been played, the leading
    /// injections of `steps` are delivered at once.
    public func append(_ steps: [Step]) {
        let injections = state.withLock { state in
            state.steps += steps
            return state.takeInjections()
        }
        for packet in injections { continuation.yield(packet) }
    }

    /// Delivers `packet` now, outside the script (as a controller's unsolicited event).
    public func inject(_ packet: HCIPacket) {
        continuation.yield(packet)
    }

    /// Ends the stream of packets from the controller, as a controller that goes away: the
    /// reader sees the end and later sends throw ``HCITransportError/closed``.
    public func finish() {
        let waiters = state.withLock { state in
            state.closed = true
            defer { state.sentWaiters = [] }
            return state.sentWaiters.map(\.1)
        }
        continuation.finish()
        for waiter in waiters { waiter.resume() }         // nothing more can be sent
    }

    /// Closes the transport (as ``finish()``).
    public func close() async { finish() }

    /// Every packet the host sent, in order.
    public var sent: [HCIPacket] { state.withLock { $0.sent } }

    /// Each difference between the script and what the host sent, described on one line.
    public var mismatches: [String] { state.withLock { $0.mismatches } }

    /// Whether every step of the script has been played.
    public var isFinished: Bool { state.withLock { $0.next == $0.steps.count } }

    /// The steps not yet played.
    public var remainingSteps: [Step] { state.withLock { Array($0.steps[$0.next...]) } }

    /// Suspends until the host has sent at least `count` packets in all, or the transport is
    /// finished (then fewer may have been sent: check ``sent``). Not cancellable: use it where the
    /// packets are sure to come (a test's time limit bounds it otherwise).
    public func waitForSent(_ count: Int) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let ready = state.withLock { state in
                guard state.sent.count < count, !state.closed else { return true }
                state.sentWaiters.append((count, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
    }
}
