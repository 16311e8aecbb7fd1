import ATT
import Synchronization

/// An ``ATTBearer`` that counts the ATT requests sent through it (each one round trip, since
/// ATT allows one outstanding request: Core v5.4, Vol 3, Part F, 3.3.2), for the demo's
/// "discovered in N round trips".
final class CountingATTBearer: ATTBearer, Sendable {
    private let inner: any ATTBearer
    private let requests = Mutex((all: 0, writes: 0))

    init(_ inner: any ATTBearer) { self.inner = inner }

    /// Requests sent so far.
    var requestCount: Int { requests.withLock { $0.all } }
    /// Write Requests among them.
    var writeRequestCount: Int { requests.withLock { $0.writes } }

    var maximumMTU: UInt16 { inner.maximumMTU }
    var security: ATTSecurity { get async { await inner.security } }
    var received: AsyncStream<[UInt8]> { inner.received }

    func send(_ pdu: [UInt8]) async throws(ATTBearerError) {
        if let first = pdu.first, ATTOpcode(rawValue: first).kind == .request {
            let isWrite = ATTOpcode(rawValue: first) == .writeRequest
            requests.withLock {
                $0.all += 1
                if isWrite { $0.writes += 1 }
            }
        }
        try await inner.send(pdu)
    }

    func close() async { await inner.close() }
}
