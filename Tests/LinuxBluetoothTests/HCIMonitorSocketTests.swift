import Glibc
import Testing
@testable import LinuxBluetooth

/// The monitor channel's frames on a SOCK_SEQPACKET pair, the test playing the kernel: the
/// header parsed, a frame whose length disagrees skipped and counted, the end.
@Suite("HCIMonitorSocket", .timeLimit(.minutes(1)))
struct HCIMonitorSocketTests {
    /// One message as the kernel sends it: Opcode, Index, Data Length (little-endian), data.
    static func message(_ opcode: UInt16, _ index: UInt16, _ data: [UInt8], length: Int? = nil) -> [UInt8] {
        let count = UInt16(length ?? data.count)
        return [UInt8(opcode & 0xFF), UInt8(opcode >> 8), UInt8(index & 0xFF), UInt8(index >> 8),
                UInt8(count & 0xFF), UInt8(count >> 8)] + data
    }

    static func deliver(_ fd: Int32, _ message: [UInt8]) {
        let sent = message.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, 0) }
        #expect(sent == message.count)
    }

    @Test("frames arrive with opcode, adapter index and data; a frame whose length disagrees is skipped and counted; closing the peer ends the frames")
    func frames() async throws {
        let fds = try seqpacketPair()
        let monitor = HCIMonitorSocket(socket: BluetoothSocket(adopting: fds[0]))
        let reset: [UInt8] = [0x03, 0x0C, 0x00]                       // HCI_Reset, as a command packet without its indicator
        Self.deliver(fds[1], Self.message(0x0002, 1, reset))               // Command on hci1
        Self.deliver(fds[1], Self.message(0x0003, 1, [0x0E, 0x04], length: 9))   // Data Length says 9, 2 came
        Self.deliver(fds[1], [0x03, 0x00, 0x01])                            // a header cut short
        Self.deliver(fds[1], Self.message(0x000C, 0xFFFF, Array("note".utf8)))   // System Note, no adapter
        close(fds[1])
        var received: [HCIMonitorSocket.Frame] = []
        for await frame in monitor.frames { received.append(frame) }
        #expect(received.map(\.opcode) == [0x0002, 0x000C])
        #expect(received.map(\.index) == [1, 0xFFFF])
        #expect(received.map(\.payload) == [reset, Array("note".utf8)])
        #expect(received.allSatisfy { $0.timestamp > 1_700_000_000_000_000 })   // microseconds of the real-time clock
        #expect(monitor.malformedFrames == 2)
    }

    @Test("a frame parses only whole: the header, then exactly Data Length octets")
    func parsing() {
        #expect(HCIMonitorSocket.Frame(message: Self.message(4, 0, [1, 2, 3]), timestamp: 5)
                == HCIMonitorSocket.Frame(opcode: 4, index: 0, payload: [1, 2, 3], timestamp: 5))
        #expect(HCIMonitorSocket.Frame(message: Self.message(4, 0, []), timestamp: 5)?.payload == [])
        #expect(HCIMonitorSocket.Frame(message: Self.message(4, 0, [1, 2], length: 3), timestamp: 5) == nil)
        #expect(HCIMonitorSocket.Frame(message: Self.message(4, 0, [1, 2, 3], length: 2), timestamp: 5) == nil)
        #expect(HCIMonitorSocket.Frame(message: [4, 0, 0, 0, 0], timestamp: 5) == nil)
    }
}
