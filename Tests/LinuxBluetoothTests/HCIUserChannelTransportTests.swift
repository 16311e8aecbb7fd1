import BLECore
import Glibc
import HCI
import Host
import Synchronization
import Testing
@testable import LinuxBluetooth

/// The user channel transport: its packets over a Unix socket pair (the test plays the kernel's
/// user channel), and its opening steps with the kernel's answers played by the test. The real
/// bind runs in the kernel lane.
@Suite("HCIUserChannelTransport", .timeLimit(.minutes(1)))
struct HCIUserChannelTransportTests {
    @Test("commands and ACL go out with their H4 type; every event and ACL packet comes in; a bad message is counted")
    func packets() async throws {
        let fds = try seqpacketPair()
        let transport = HCIUserChannelTransport(socket: BluetoothSocket(adopting: fds[0]), adapter: 0)
        let kernel = MessageSocket(BluetoothSocket(adopting: fds[1]), receiveCapacity: 1 + 4 + 0xFFFF, label: "test")
        var fromHost = kernel.messages.makeAsyncIterator()
        let reset = try h4Packet("01 03 0c 00")                                // Command: HCI_Reset
        try await transport.send(reset)
        #expect(await fromHost.next() == [0x01, 0x03, 0x0c, 0x00])
        let write = try h4Packet("02 40 00 09 00 05 00 04 00 12 03 00 01 02")  // ACL: handle 0x040, ATT Write Request 0x0003
        try await transport.send(write)
        #expect(await fromHost.next() == write.h4Encoded)

        let big = aclPacket(count: 2000)                                      // bigger than the raw channel's 1021
        try await kernel.send(Hex.decode("04 0e 04 01 03 0c 00")!, what: "Command Complete (Reset)")
        try await kernel.send(Hex.decode("02 40 20 07 00 03 00 04 00 0b 48 69")!, what: "ACL: ATT Read Response 'Hi'")
        try await kernel.send([0x04, 0x0e], what: "a cut event")               // counted, not delivered
        try await kernel.send(Hex.decode("04 3e 0c 0a 00 40 00 00 00 11 22 33 44 55 66")!, what: "LE Meta, cut")
        try await kernel.send(big.h4Encoded, what: "a 2000-octet ACL packet")
        try await kernel.send(Hex.decode("04 05 04 00 40 00 13")!, what: "Disconnection Complete")
        var packets = transport.packets.makeAsyncIterator()
        #expect(await packets.next() == (try h4Packet("04 0e 04 01 03 0c 00")))
        #expect(await packets.next() == (try h4Packet("02 40 20 07 00 03 00 04 00 0b 48 69")))
        // An LE Meta event whose parameters are cut is still an event packet: the event decoders judge it.
        #expect(await packets.next() == (try h4Packet("04 3e 0c 0a 00 40 00 00 00 11 22 33 44 55 66")))
        #expect(await packets.next() == big)
        #expect(await packets.next() == (try h4Packet("04 05 04 00 40 00 13")))
        #expect(transport.malformedMessageCount == 1)
        #expect(transport.lastMalformedMessageError != nil)
        kernel.close()
        #expect(await packets.next() == nil)
        await #expect(throws: HCITransportError.closed) { try await transport.send(reset) }
        await transport.close()
    }

    /// The opening steps, recorded, with the kernel's answers chosen by the test.
    final class Kernel: Sendable {
        let calls = Mutex<[String]>([])
        let socketFD = Mutex<BluetoothSocket?>(nil)
        let downResult: Int32
        let bindResult: Int32

        init(down: Int32 = 0, bind: Int32 = 0) {
            downResult = down
            bindResult = bind
        }

        var opening: HCIUserChannelTransport.Opening {
            HCIUserChannelTransport.Opening(
                powerDown: { (index: UInt16) throws(LinuxBluetoothError) in
                    self.calls.withLock { $0.append("down hci\(index)") }
                    if self.downResult != 0 {
                        throw LinuxBluetoothError(.switchAdapter(index: index, up: false), code: self.downResult)
                    }
                },
                openSocket: { (operation: LinuxBluetoothError.Operation) throws(LinuxBluetoothError) in
                    self.calls.withLock { $0.append("socket") }
                    var fds: [Int32] = [0, 0]
                    let type = Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
                    guard socketpair(AF_UNIX, type, 0, &fds) == 0 else { throw LinuxBluetoothError(operation, code: errno) }
                    close(fds[1])
                    let socket = BluetoothSocket(adopting: fds[0])
                    self.socketFD.withLock { $0 = socket }
                    return socket
                },
                bind: { _, index in
                    self.calls.withLock { $0.append("bind hci\(index) user") }
                    return self.bindResult == 0 ? 0 : -self.bindResult
                })
        }
    }

    @Test("opening takes the adapter down before binding its user channel")
    func order() async throws {
        let kernel = Kernel()
        let transport = try HCIUserChannelTransport(adapter: 2, opening: kernel.opening)
        #expect(kernel.calls.withLock { $0 } == ["down hci2", "socket", "bind hci2 user"])
        #expect(transport.adapterIndex == 2)
        await transport.close()
    }

    @Test("EBUSY from the bind: the adapter is held; stop bluetoothd and power it off with blectl")
    func busy() throws {
        let kernel = Kernel(bind: EBUSY)
        do {
            _ = try HCIUserChannelTransport(adapter: 1, opening: kernel.opening)
            Issue.record("opened")
        } catch {
            #expect(error == LinuxBluetoothError(.bindHCI(index: 1, channel: 1), code: EBUSY))
            #expect(error.description.hasPrefix("binding hci1 to the user channel: hci1 is held (by bluetoothd, or by the kernel while it is up)"))
            #expect(error.description.contains("sudo systemctl stop bluetooth"))
            #expect(error.description.contains("`blectl --hci 1 power off`"))
        }
        #expect(kernel.socketFD.withLock { $0?.isClosed } == true)             // the socket is not left open
    }

    @Test("EBUSY while taking the adapter down: another process has its user channel")
    func busyDown() throws {
        do {
            _ = try HCIUserChannelTransport(adapter: 0, opening: Kernel(down: EBUSY).opening)
            Issue.record("opened")
        } catch {
            #expect(error.description.hasPrefix("taking hci0 down: another process has hci0's user channel open"))
        }
    }

    @Test("EPERM names CAP_NET_ADMIN; ERFKILL names rfkill; EAFNOSUPPORT says the kernel has no Bluetooth",
          arguments: [(EPERM, "the user channel needs CAP_NET_ADMIN"),
                      (ERFKILL, "`rfkill unblock bluetooth`"),
                      (EAFNOSUPPORT, "this kernel has no Bluetooth"),
                      (ENODEV, "`blectl list` shows the adapters")])
    func remedies(code: Int32, remedy: String) throws {
        do {
            _ = try HCIUserChannelTransport(adapter: 0, opening: Kernel(bind: code).opening)
            Issue.record("opened")
        } catch {
            #expect(error.code == code)
            #expect(error.description.hasPrefix("binding hci0 to the user channel: "))
            #expect(error.description.contains(remedy))
        }
    }

    @Test("taking the adapter down without CAP_NET_ADMIN stops the opening there, saying so")
    func downNotPermitted() throws {
        let kernel = Kernel(down: EPERM)
        do {
            _ = try HCIUserChannelTransport(adapter: 0, opening: kernel.opening)
            Issue.record("opened")
        } catch {
            #expect(error.description.contains("CAP_NET_ADMIN"))
        }
        #expect(kernel.calls.withLock { $0 } == ["down hci0"])
    }

    @Test("opening the user channel on this machine: a typed error that says what to do")
    func openHere() async {
        do {
            let transport = try HCIUserChannelTransport(adapter: 7)
            await transport.close()
        } catch {
            // Without kernel Bluetooth (this machine): EAFNOSUPPORT; with it, hci7 is unlikely to exist.
            #expect(error.remedy != nil, "\(error)")
            if error.code == EAFNOSUPPORT { #expect(error.description.contains("this kernel has no Bluetooth")) }
        }
    }
}
