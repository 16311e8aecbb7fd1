import ATT
import Synchronization

/// A connection's ATT bearer with the PDUs sent through it counted by opcode
/// (``Peripheral/attPDUCounts``); everything else is the bearer's own, its executor included.
final class CountingATTBearer: ATTBearer, Sendable {
    private let inner: any ATTBearer
    private let counts = Mutex(ATTPDUCounts())

    init(_ inner: any ATTBearer) { self.inner = inner }

    /// What has been sent so far.
    var sent: ATTPDUCounts { counts.withLock { $0 } }

    var maximumMTU: UInt16 { inner.maximumMTU }
    var security: ATTSecurity { get async { await inner.security } }
    var received: AsyncStream<[UInt8]> { inner.received }
    var executor: (any TaskExecutor)? { inner.executor }

    func send(_ pdu: [UInt8]) async throws(ATTBearerError) {
        if let first = pdu.first {
            counts.withLock { $0.sent[ATTOpcode(rawValue: first), default: 0] += 1 }
        }
        try await inner.send(pdu)
    }

    func close() async { await inner.close() }
}
