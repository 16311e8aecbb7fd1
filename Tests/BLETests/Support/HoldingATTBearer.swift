import ATT
import Synchronization

/// Which ATT PDUs from the central a ``TestSensor`` withholds from its GATT server, so that a
/// test can leave a request pending for as long as it likes: each PDU the rule matches is
/// dropped before the server sees it, and handed to ``reached()``.
final class HoldRule: Sendable {
    let matches: @Sendable ([UInt8]) -> Bool
    private let held: AsyncStream<[UInt8]>
    private let input: AsyncStream<[UInt8]>.Continuation
    /// How to hand each PDU held so far to the server after all (``passOn()``).
    private let forwards = Mutex<[@Sendable () -> Void]>([])

    init(_ matches: @escaping @Sendable ([UInt8]) -> Bool) {
        self.matches = matches
        (held, input) = AsyncStream.makeStream(of: [UInt8].self)
    }

    /// Takes a PDU the rule matched; `forward` hands it to the server after all.
    func hold(_ pdu: [UInt8], forward: @escaping @Sendable () -> Void) {
        forwards.withLock { $0.append(forward) }
        input.yield(pdu)
    }

    /// Hands the PDUs held so far to the server, in the order they came (a request held for a
    /// while rather than lost).
    func passOn() {
        for forward in forwards.withLock({ held in defer { held = [] }; return held }) { forward() }
    }

    /// Waits for the first PDU held, and returns it.
    func reached() async -> [UInt8]? {
        for await pdu in held { return pdu }
        return nil
    }
}

/// An ``ATTBearer`` around a link's bearer that passes every PDU through except those the
/// sensor's current ``HoldRule`` matches, and hands each PDU from the central to `log` first.
final class HoldingATTBearer: ATTBearer, Sendable {
    private let inner: any ATTBearer
    let received: AsyncStream<[UInt8]>

    init(_ inner: any ATTBearer, log: @escaping @Sendable ([UInt8]) -> Void = { _ in }, rule: @escaping @Sendable () -> HoldRule?) {
        self.inner = inner
        let (stream, continuation) = AsyncStream.makeStream(of: [UInt8].self)
        received = stream
        Task {
            for await pdu in inner.received {
                log(pdu)
                if let current = rule(), current.matches(pdu) {
                    current.hold(pdu) { continuation.yield(pdu) }
                } else {
                    continuation.yield(pdu)
                }
            }
            continuation.finish()
        }
    }

    var maximumMTU: UInt16 { inner.maximumMTU }
    var security: ATTSecurity { get async { await inner.security } }
    func send(_ pdu: [UInt8]) async throws(ATTBearerError) { try await inner.send(pdu) }
    func close() async { await inner.close() }
}
