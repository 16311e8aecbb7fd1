import Glibc
import Testing
import BLECore
import HCI
import Host
@testable import LinuxBluetooth

/// The raw HCI transport's packet handling over a Unix socket pair (the test plays the kernel's
/// raw channel); opening the real channel runs in the kernel lane.
@Suite("HCISocketTransport", .timeLimit(.minutes(1)))
struct HCISocketTransportTests {
    @Test("commands go out with their H4 type; events come in decoded; a message that does not decode is skipped")
    func packets() async throws {
        let fds = try seqpacketPair()
        let transport = HCISocketTransport(socket: BluetoothSocket(adopting: fds[0]), adapter: 0)
        let kernel = MessageSocket(BluetoothSocket(adopting: fds[1]), receiveCapacity: 1024, label: "test")
        var fromTransport = kernel.messages.makeAsyncIterator()

        let reset = try HCIPacket(h4: Hex.decode("01 030c 00")!)                 // HCI_Reset
        try await transport.send(reset)
        #expect(await fromTransport.next() == [0x01, 0x03, 0x0c, 0x00])

        try await kernel.send(Hex.decode("04 0e04 01030c00")!, what: "Command Complete")   // Command Complete, Reset, Success
        try await kernel.send([0x04, 0x0e], what: "a cut event")                          // skipped
        try await kernel.send(Hex.decode("04 0504 00400013")!, what: "Disconnection Complete")
        var packets = transport.packets.makeAsyncIterator()
        #expect(await packets.next() == (try HCIPacket(h4: Hex.decode("04 0e04 01030c00")!)))
        #expect(await packets.next() == (try HCIPacket(h4: Hex.decode("04 0504 00400013")!)))
        kernel.close()
        #expect(await packets.next() == nil)
        await #expect(throws: HCITransportError.closed) { try await transport.send(reset) }
    }

    @Test("a send that meets the kernel's end gone (EPIPE) is closed, not a failure, whoever notices first")
    func sendAfterPeerClosed() async throws {
        let fds = try seqpacketPair()
        let transport = HCISocketTransport(socket: BluetoothSocket(adopting: fds[0]), adapter: 0)
        Glibc.close(fds[1])                                                       // the kernel's end, at once
        let reset = try HCIPacket(h4: Hex.decode("01 030c 00")!)
        await #expect(throws: HCITransportError.closed) { try await transport.send(reset) }
        await transport.close()
    }

    @Test("opening the raw channel here: the typed error names the adapter and the channel")
    func openHere() {
        do {
            let transport = try HCISocketTransport(adapter: 3)
            _ = transport
        } catch {
            #expect(error.description.hasPrefix("binding hci3 to the raw channel: "))
        }
    }
}
