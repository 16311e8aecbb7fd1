import ATT
import CBluetoothLinux
import Dispatch
import Synchronization
#if canImport(Glibc)
import Glibc
#endif

/// An ATT bearer on a connected SOCK_SEQPACKET socket whose every message is one ATT PDU: in kernel
/// mode, the L2CAP socket on the LE fixed channel CID 0x0004 (Core v5.4, Vol 3, Part A, 2.1;
/// Part F, 3.2.11), where the kernel does ACL, L2CAP and SMP.
///
/// Reading is driven by readiness (a DispatchSource on the descriptor); a send that finds the
/// socket's buffer full waits until it is writable. The link ending (end of stream, or an error
/// such as the supervision timeout) finishes ``received``; later sends throw
/// ``ATTBearerError/closed``. ``security`` is read from the socket (BT_SECURITY) each time.
public final class SocketATTBearer: ATTBearer, Sendable {
    /// The largest ATT PDU received: at most 517 (the longest attribute value, 512, plus
    /// headers; Part F, 3.2.9), and no more than the socket's receive MTU (BT_RCVMTU) when the
    /// socket reports one.
    public let maximumMTU: UInt16
    /// The PDUs from the peer, each one socket message.
    public let received: AsyncStream<[UInt8]>
    /// Why the link ended, once it has: nil for an orderly end or a close at this end.
    public var endError: LinuxBluetoothError? { state.withLock { $0.endError } }

    private let socket: BluetoothSocket
    private let input: AsyncStream<[UInt8]>.Continuation
    private let queue = DispatchQueue(label: "LinuxBluetooth.SocketATTBearer")
    private let state = Mutex(State())

    private struct State {
        var reader: DispatchSourceRead?
        var writer: DispatchSourceWrite?
        var writeWaiters: [CheckedContinuation<Bool, Never>] = []
        var isClosed = false
        var endError: LinuxBluetoothError?
    }

    /// A bearer on `socket`, which must be connected; the bearer owns it and closes it.
    ///
    /// - Parameter maximumMTU: the largest PDU to announce, in octets (23...517), further
    ///   limited by the socket's receive MTU.
    public init(socket: BluetoothSocket, maximumMTU: UInt16 = 517) {
        self.socket = socket
        let socketMTU = cbl_get_mtu(socket.descriptor, 1)
        let limit = socketMTU >= 23 ? min(Int(maximumMTU), Int(socketMTU)) : Int(maximumMTU)
        self.maximumMTU = UInt16(clamping: max(23, min(517, limit)))
        (received, input) = AsyncStream.makeStream(of: [UInt8].self)
        let queue = self.queue
        state.withLock { state in
            let reader = DispatchSource.makeReadSource(fileDescriptor: socket.descriptor, queue: queue)
            reader.setEventHandler { [weak self] in self?.readAvailable() }
            reader.resume()
            state.reader = reader
        }
    }

    /// The link's security from BT_SECURITY: level 2 (medium) is an encrypted link, 3 (high) and
    /// 4 (FIPS) an encrypted link with an authenticated key; the key size as the kernel reports
    /// it. A socket that cannot say (not Bluetooth, or closed) reports no security.
    public var security: ATTSecurity {
        get async {
            var level: UInt8 = 0, keySize: UInt8 = 0
            guard cbl_get_security(socket.descriptor, &level, &keySize) == 0 else { return .none }
            return Self.security(level: level, keySize: keySize)
        }
    }

    /// ATTSecurity for a BT_SECURITY `level` (0 SDP, 1 low, 2 medium, 3 high, 4 FIPS) and key size.
    static func security(level: UInt8, keySize: UInt8) -> ATTSecurity {
        guard level >= 2 else { return .none }
        return ATTSecurity(isEncrypted: true, isAuthenticated: level >= 3, encryptionKeySize: Int(keySize))
    }

    /// Sends one PDU as one socket message, waiting for room when the socket's buffer is full.
    ///
    /// - Throws: ``ATTBearerError/closed`` when the bearer or the link has ended.
    public func send(_ pdu: [UInt8]) async throws(ATTBearerError) {
        while true {
            guard !state.withLock({ $0.isClosed }) else { throw .closed }
            let result = pdu.withUnsafeBytes { cbl_send(socket.descriptor, $0.baseAddress, $0.count) }
            if result >= 0 { return }
            switch Int32(-result) {
            case EINTR: continue
            case EAGAIN:
                guard await writable() else { throw .closed }
            default:
                end(LinuxBluetoothError(.transfer("sending an ATT PDU"), code: Int32(-result)))
                throw .closed
            }
        }
    }

    /// Stops reading and closes the socket; ``received`` finishes. Closing again does nothing.
    public func close() async { end(nil) }

    // MARK: Readiness

    /// Takes every message waiting (readiness said there is one): each is one PDU.
    private func readAvailable() {
        var buffer = [UInt8](repeating: 0, count: 2048)
        while true {
            let count = buffer.withUnsafeMutableBytes { cbl_recv(socket.descriptor, $0.baseAddress, $0.count) }
            if count > 0 {
                input.yield(Array(buffer[..<count]))
                continue
            }
            if count == 0 {
                end(nil)                                  // the peer or the link ended
            } else if Int32(-count) != EAGAIN && Int32(-count) != EINTR {
                end(LinuxBluetoothError(.transfer("receiving ATT PDUs"), code: Int32(-count)))
            }
            return
        }
    }

    /// Waits until the socket can take a message; false when the bearer ended first.
    private func writable() async -> Bool {
        await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            let (start, closed): (DispatchSourceWrite?, Bool) = state.withLock { state in
                guard !state.isClosed else { return (nil, true) }
                state.writeWaiters.append(continuation)
                guard state.writer == nil else { return (nil, false) }
                let writer = DispatchSource.makeWriteSource(fileDescriptor: socket.descriptor, queue: queue)
                state.writer = writer
                return (writer, false)
            }
            if closed { continuation.resume(returning: false); return }
            guard let start else { return }
            start.setEventHandler { [weak self] in self?.becameWritable() }
            start.resume()
        }
    }

    private func becameWritable() {
        let (writer, waiters) = state.withLock { state in
            defer { state.writer = nil; state.writeWaiters = [] }
            return (state.writer, state.writeWaiters)
        }
        writer?.cancel()
        for waiter in waiters { waiter.resume(returning: true) }
    }

    /// Ends the bearer once: stops the sources, closes the socket once they are cancelled,
    /// finishes ``received``, and resumes waiting senders.
    private func end(_ error: LinuxBluetoothError?) {
        let ended: (DispatchSourceRead?, DispatchSourceWrite?, [CheckedContinuation<Bool, Never>])? = state.withLock { state in
            guard !state.isClosed else { return nil }
            state.isClosed = true
            state.endError = error
            defer { state.reader = nil; state.writer = nil; state.writeWaiters = [] }
            return (state.reader, state.writer, state.writeWaiters)
        }
        guard let (reader, writer, waiters) = ended else { return }
        writer?.cancel()
        if let reader {
            // The descriptor is closed only once the source no longer watches it.
            let socket = self.socket
            reader.setCancelHandler { socket.close() }
            reader.cancel()
        } else {
            socket.close()
        }
        input.finish()
        for waiter in waiters { waiter.resume(returning: false) }
    }
}
