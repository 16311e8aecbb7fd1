import Glibc
import Testing
@testable import LinuxBluetooth

/// A MessageSocket's descriptor is closed as soon as the socket ends, and the kernel gives its
/// number to the next socket opened: a send or an option read that used the number after the
/// close would reach another socket (another central's link, the HCI channel). Calls hold the
/// descriptor open while they use it.
@Suite("MessageSocket: the descriptor held open by the calls that use it", .timeLimit(.minutes(1)))
struct MessageSocketDescriptorTests {
    @Test("a call that holds the descriptor keeps it open across the socket's end; once ended, calls get nil and sends EPIPE")
    func callsHoldTheDescriptor() async throws {
        let fds = try seqpacketPair()
        defer { close(fds[1]) }
        let socket = MessageSocket(BluetoothSocket(adopting: fds[0]), receiveCapacity: 64, label: "test.descriptor")
        let openDuringCall = socket.withDescriptor { descriptor -> Bool in
            socket.close()                                   // ends the socket; its reader thread stops
            usleep(20_000)                                   // time for that thread to let go of the descriptor
            return fcntl(descriptor, F_GETFD) != -1          // which it must not close under this call
        }
        #expect(openDuringCall == true)
        _ = await socket.ended()
        #expect(socket.withDescriptor { _ in true } == nil)
        await #expect(throws: LinuxBluetoothError.self) { try await socket.send([0x01], what: "a message") }
    }

    @Test("the bearer's option reads say nothing once the socket has ended")
    func optionReadsAfterTheEnd() async throws {
        let fds = try seqpacketPair()
        defer { close(fds[1]) }
        let bearer = SocketATTBearer(socket: BluetoothSocket(adopting: fds[0]))
        await bearer.close()
        _ = await bearer.ended()
        #expect(bearer.connectionHandle == nil)
        #expect(await bearer.security == .none)
    }
}
