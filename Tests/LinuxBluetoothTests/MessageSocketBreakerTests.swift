import Glibc
import Testing
import ATT
import BLECore
import HCI
import Host
@testable import LinuxBluetooth

/// Breaker findings for ``MessageSocket`` and the transports on it, over Unix SOCK_SEQPACKET
/// socket pairs: each test failed before its fix.
@Suite("MessageSocket: zero-length messages", .timeLimit(.minutes(1)))
struct MessageSocketBreakerTests {
    @Test("a zero-length message is a message, not the end: the bearer stays open and the next PDU arrives")
    func zeroLengthATT() async throws {
        let (a, b) = try SocketATTBearerTests.pair()
        try await a.send([])                                  // an empty L2CAP SDU on CID 0x0004
        try await a.send([0x0a, 0x03, 0x00])                  // ATT_READ_REQ, handle 0x0003
        var fromA = b.received.makeAsyncIterator()
        #expect(await fromA.next() == [], "the empty message, delivered as one (the ATT engine ignores it)")
        #expect(await fromA.next() == [0x0a, 0x03, 0x00], "the PDU after it is not lost")
        #expect(b.endError == nil)
        try await b.send([0x0b, 0x41])                        // ATT_READ_RSP: the bearer still sends
        var fromB = a.received.makeAsyncIterator()
        #expect(await fromB.next() == [0x0b, 0x41])
        await a.close()
        #expect(await fromA.next() == nil, "the peer closing still ends the stream")
        await b.close()
    }

    @Test("the raw HCI transport skips a zero-length message and goes on")
    func zeroLengthHCI() async throws {
        let fds = try seqpacketPair()
        let transport = HCISocketTransport(socket: BluetoothSocket(adopting: fds[0]), adapter: 0)
        let kernel = MessageSocket(BluetoothSocket(adopting: fds[1]), receiveCapacity: 1024, label: "test")
        try await kernel.send([], what: "an empty message")
        try await kernel.send(Hex.decode("04 0e04 01030c00")!, what: "Command Complete")   // HCI_Reset, Success
        var packets = transport.packets.makeAsyncIterator()
        #expect(await packets.next() == (try HCIPacket(h4: Hex.decode("04 0e04 01030c00")!)))
        kernel.close()
        #expect(await packets.next() == nil)
    }

    @Test("an empty message, a PDU and the peer's close, all queued before reading: the PDU still arrives, then the end")
    func zeroLengthThenClose() async throws {
        let fds = try seqpacketPair()
        let pdu: [UInt8] = [0x1b, 0x03, 0x00, 0x64]           // ATT_HANDLE_VALUE_NTF, handle 0x0003, value 0x64
        #expect(send(fds[1], nil, 0, 0) == 0)
        #expect(pdu.withUnsafeBytes { send(fds[1], $0.baseAddress, $0.count, 0) } == 4)
        #expect(close(fds[1]) == 0)
        let bearer = SocketATTBearer(socket: BluetoothSocket(adopting: fds[0]))
        var received = bearer.received.makeAsyncIterator()
        #expect(await received.next() == [])
        #expect(await received.next() == pdu)
        #expect(await received.next() == nil)
        #expect(bearer.endError == nil)
    }

    @Test("a socket error reported before the messages still queued: they arrive, then the stream ends with the error")
    func errorBeforeQueuedMessages() async throws {
        let fds = try loopbackDatagramPair()
        let pdu: [UInt8] = [0x1b, 0x03, 0x00, 0x42]             // a notification sent just before the link ended
        #expect(pdu.withUnsafeBytes { send(fds[1], $0.baseAddress, $0.count, 0) } == 4)
        #expect(close(fds[1]) == 0)
        #expect(send(fds[0], [0x00], 1, 0) == 1)                // brings back ECONNREFUSED, pending on fds[0]
        let socket = MessageSocket(BluetoothSocket(adopting: fds[0]), receiveCapacity: 64, label: "test.error-first")
        var received = socket.messages.makeAsyncIterator()
        #expect(await received.next() == pdu)
        #expect(await received.next() == nil)
        #expect(socket.endError?.code == ECONNREFUSED)
    }

    /// FIONREAD on a datagram socket (and on L2CAP) sizes the next message only: with two empty
    /// messages queued before a PDU and the read side shut down, it said 0 at the first empty
    /// one, and the socket ended there, losing the PDU.
    @Test("empty messages, then a PDU, on a socket whose read side is shut down: all arrive")
    func emptyMessagesBeforeThePDUAtTheEnd() async throws {
        var fds: [Int32] = [0, 0]
        let type = Int32(SOCK_DGRAM.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
        try #require(socketpair(AF_UNIX, type, 0, &fds) == 0)
        defer { close(fds[1]) }
        let pdu: [UInt8] = [0x1b, 0x01, 0x00, 0x42]
        #expect(send(fds[1], nil, 0, 0) == 0)
        #expect(send(fds[1], nil, 0, 0) == 0)
        #expect(pdu.withUnsafeBytes { send(fds[1], $0.baseAddress, $0.count, 0) } == 4)
        #expect(shutdown(fds[0], Int32(SHUT_RD)) == 0)
        let socket = MessageSocket(BluetoothSocket(adopting: fds[0]), receiveCapacity: 64, label: "test.empty-at-end")
        var received = socket.messages.makeAsyncIterator()
        #expect(await received.next() == [])
        #expect(await received.next() == [])
        #expect(await received.next() == pdu)
        // A Unix datagram socket's end reads as EAGAIN, not 0 as an L2CAP socket's does, so this
        // one ends by closing it.
        socket.close()
        #expect(await received.next() == nil)
    }

    @Test("a send that fails while messages are still queued: they arrive, then the stream ends with the send's error")
    func failedSendAfterQueuedMessages() async throws {
        let fds = try seqpacketPair()
        defer { close(fds[1]) }
        // Three notifications the kernel still holds when a send learns that the socket cannot
        // send any more (here EPIPE, its writing side shut down; on a link that ended, ENOTCONN).
        let pdus: [[UInt8]] = (1...3).map { [0x1b, 0x03, 0x00, UInt8($0)] }
        for pdu in pdus { #expect(pdu.withUnsafeBytes { send(fds[1], $0.baseAddress, $0.count, 0) } == 4) }
        #expect(shutdown(fds[0], Int32(SHUT_WR)) == 0)
        let socket = MessageSocket(BluetoothSocket(adopting: fds[0]), receiveCapacity: 64, label: "test.failed-send")
        await #expect(throws: LinuxBluetoothError.self) { try await socket.send([0x12, 0x04, 0x00, 0x01, 0x00], what: "an ATT PDU") }
        var received = socket.messages.makeAsyncIterator()
        for pdu in pdus { #expect(await received.next() == pdu) }
        #expect(await received.next() == nil)
        #expect(await socket.ended()?.code == EPIPE)
        await #expect(throws: LinuxBluetoothError.self) { try await socket.send([0x12], what: "an ATT PDU") }
    }
}
