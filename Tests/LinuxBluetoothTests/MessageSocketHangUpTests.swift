import Glibc
import Testing
@testable import LinuxBluetooth

/// The kernel lane's scenario 30 (and 21, 31) lost `blectl serve` to a SIGSEGV in libdispatch's
/// event loop (`_dispatch_event_loop_drain`, on its manager thread) shortly after a central's link
/// went down. A link going down hangs up the L2CAP socket (POLLHUP), and libdispatch's epoll
/// backend then unregisters that socket's read source from the source's own queue, beside the
/// manager thread that walks the same registrations unlocked (swift-corelibs-libdispatch issue
/// 949). The churn of `serve`: sockets accepted, read, hung up by the peer and closed, while
/// other sockets (the raw HCI channel, the management channel) keep receiving.
@Suite("MessageSocket: peers that hang up, many times over", .timeLimit(.minutes(2)))
struct MessageSocketHangUpTests {
    /// Hang-ups, each while two long-lived sockets receive a message.
    static let rounds = 3000

    @Test("every hung-up socket ends its stream after its last message, while the long-lived sockets keep receiving")
    func hangUpChurn() async throws {
        let hci = try seqpacketPair()
        let management = try seqpacketPair()
        let hciSocket = MessageSocket(BluetoothSocket(adopting: hci[0]), receiveCapacity: 64, label: "test.hci")
        let managementSocket = MessageSocket(BluetoothSocket(adopting: management[0]), receiveCapacity: 64, label: "test.mgmt")
        var hciMessages = hciSocket.messages.makeAsyncIterator()
        var managementMessages = managementSocket.messages.makeAsyncIterator()
        var ended = 0
        for round in 0..<Self.rounds {
            let fds = try seqpacketPair()
            let bearer = MessageSocket(BluetoothSocket(adopting: fds[0]), receiveCapacity: 64, label: "test.att")
            let pdu: [UInt8] = [0x0a, UInt8(truncatingIfNeeded: round), 0x00]
            #expect(pdu.withUnsafeBytes { send(fds[1], $0.baseAddress, $0.count, 0) } == 3)
            // The peer goes (the link is down): POLLHUP on the socket, at the same time as the
            // other sockets' messages (Disconnection Complete, Device Disconnected).
            #expect(close(fds[1]) == 0)
            #expect(send(hci[1], [UInt8(truncatingIfNeeded: round)], 1, 0) == 1)
            #expect(send(management[1], [UInt8(truncatingIfNeeded: round)], 1, 0) == 1)
            var received = bearer.messages.makeAsyncIterator()
            #expect(await received.next() == pdu)
            if await received.next() == nil { ended += 1 }
            bearer.close()
            #expect(await hciMessages.next() == [UInt8(truncatingIfNeeded: round)])
            #expect(await managementMessages.next() == [UInt8(truncatingIfNeeded: round)])
        }
        #expect(ended == Self.rounds, "each hung-up socket's stream ended")
        hciSocket.close()
        managementSocket.close()
        _ = close(hci[1])
        _ = close(management[1])
    }
}
