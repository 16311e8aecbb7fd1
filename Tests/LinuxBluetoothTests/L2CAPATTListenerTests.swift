import Glibc
import Synchronization
import Testing
import BLECore
@testable import LinuxBluetooth

/// The listener's accepting, on a listening Unix socket with an accept the test controls (the
/// kernel's L2CAP listener runs in the kernel lane).
@Suite("L2CAPATTListener: accepting", .timeLimit(.minutes(1)))
struct L2CAPATTListenerTests {
    /// A listening SOCK_SEQPACKET Unix socket at an abstract address, and a client connected to
    /// it: the connection waits to be accepted, so the listening socket stays readable.
    static func listeningPair() throws -> (listening: Int32, client: Int32) {
        let type = Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        let listening = socket(AF_UNIX, type, 0)
        try #require(listening >= 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        let name = Array("\0linuxble-listener-\(UInt64.random(in: 0...UInt64.max))".utf8)
        withUnsafeMutableBytes(of: &address.sun_path) { $0.copyBytes(from: name) }
        let length = socklen_t(MemoryLayout<sa_family_t>.size + name.count)
        let bound = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listening, $0, length) } }
        try #require(bound == 0)
        try #require(listen(listening, 4) == 0)
        let client = socket(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0)
        let connected = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, length) } }
        try #require(connected == 0)
        return (listening, client)
    }

    /// Out of descriptors (EMFILE), accept(2) keeps failing while the connection stays queued:
    /// retrying on every readiness event would spin a core. The listener pauses 100 ms instead,
    /// and accepts the connection once descriptors are free again.
    @Test("EMFILE pauses accepting instead of spinning, and the waiting central is accepted afterwards")
    func resourceErrorPauses() async throws {
        let (listening, client) = try Self.listeningPair()
        defer { close(client) }
        let calls = Atomic<Int>(0)
        let descriptorsFree = Atomic<Bool>(false)
        let listener = L2CAPATTListener(listening: BluetoothSocket(adopting: listening)) { descriptor in
            calls.add(1, ordering: .relaxed)
            guard descriptorsFree.load(ordering: .relaxed) else { return .failed(EMFILE) }
            let fd = accept(descriptor, nil, nil)
            if fd >= 0 { _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK) }
            return fd >= 0 ? .connection(descriptor: fd, peer: BluetoothAddress(0x00_AA_01_01_00_01), isRandom: false) : .failed(errno)
        }
        let clock = ContinuousClock()
        let start = clock.now
        try await Task.sleep(for: .milliseconds(350))
        let failedCalls = calls.load(ordering: .relaxed)
        // One call per 100 ms pause at most (a loaded machine stretches the sleep, so count the
        // pauses that fit in the time that really passed); a spin makes thousands.
        let elapsed = clock.now - start
        let pauses = Int(elapsed / .milliseconds(100))
        #expect(failedCalls >= 1 && failedCalls <= pauses + 3, "\(failedCalls) accept calls in \(elapsed): one per 100 ms pause, not a spin")
        descriptorsFree.store(true, ordering: .relaxed)
        var connections = listener.connections.makeAsyncIterator()
        let accepted = try #require(await connections.next())
        #expect(accepted.peer == BluetoothAddress(0x00_AA_01_01_00_01))
        listener.close()
        #expect(await connections.next() == nil, "connections finish when the listener closes")
    }

    @Test("closing while paused closes the socket and finishes the connections")
    func closeWhilePaused() async throws {
        let (listening, client) = try Self.listeningPair()
        defer { close(client) }
        let calls = Atomic<Int>(0)
        let listener = L2CAPATTListener(listening: BluetoothSocket(adopting: listening)) { _ in
            calls.add(1, ordering: .relaxed)
            return .failed(ENFILE)
        }
        while calls.load(ordering: .relaxed) == 0 { await Task.yield() }
        listener.close()
        var connections = listener.connections.makeAsyncIterator()
        #expect(await connections.next() == nil)
        // The cancel handler ran: the listening socket is closed, which hangs up the client
        // still waiting in its backlog. (Not fcntl on the descriptor's number: in a parallel
        // run another test's socket may take the number at once.)
        var closed = false
        for _ in 0..<100 where !closed {
            var entry = pollfd(fd: client, events: Int16(POLLIN), revents: 0)
            closed = poll(&entry, 1, 100) == 1 && entry.revents & Int16(POLLHUP | POLLERR) != 0
        }
        #expect(closed, "the client in the backlog was never hung up: the listening socket is still open")
    }
}
