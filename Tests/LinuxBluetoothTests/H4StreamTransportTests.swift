import BLECore
import Glibc
import HCI
import Host
import Testing
@testable import LinuxBluetooth

/// The H4 stream transport on a Unix stream socket pair: framing both ways, ordered whole
/// packets from concurrent senders, partial writes, garbage, the peer's end, close.
@Suite("H4StreamTransport", .timeLimit(.minutes(1)))
struct H4StreamTransportTests {
    static let reset = "01 03 0c 00"                       // Command: HCI_Reset
    static let commandComplete = "04 0e 04 01 03 0c 00"    // Event: Command Complete, 1 credit, Reset, Success

    /// Who reads the stream: the transport's own reader thread, or a ``HostExecutor``'s thread.
    enum Reader: String, CustomTestStringConvertible, CaseIterable {
        case thread, executor
        var testDescription: String { rawValue }

        func transport(_ fd: Int32, _ name: String) throws -> H4StreamTransport {
            try H4StreamTransport(adopting: fd, name: name, executor: self == .executor ? HostExecutor(name: name) : nil)
        }
    }

    @Test("a command goes out as an H4 frame; events and ACL data come back as packets", arguments: Reader.allCases)
    func bothWays(reader: Reader) async throws {
        let fds = try streamPair()
        let host = try reader.transport(fds[0], "host")
        let controller = try reader.transport(fds[1], "controller")
        try await host.send(try h4Packet(Self.reset))
        #expect(await receive(1, from: controller) == [try h4Packet(Self.reset)])
        try await controller.send(try h4Packet(Self.commandComplete))
        try await controller.send(try h4Packet("02 40 20 07 00 03 00 04 00 0a 03 00"))   // ACL: handle 0x040, ATT Read 0x0003
        #expect(await receive(2, from: host) == [try h4Packet(Self.commandComplete), try h4Packet("02 40 20 07 00 03 00 04 00 0a 03 00")])
        #expect(host.diagnosticCount == 0 && host.skippedOctetCount == 0)
        await host.close()
        await controller.close()
    }

    @Test("concurrent senders: every packet arrives whole, each sender's in its order", arguments: Reader.allCases)
    func concurrentSenders(reader: Reader) async throws {
        let fds = try streamPair()
        let sender = try reader.transport(fds[0], "sender")
        let receiver = try reader.transport(fds[1], "receiver")
        let senders = 16, perSender = 40
        async let received = receive(senders * perSender, from: receiver)
        try await withThrowingTaskGroup(of: Void.self) { group in
            for id in 0..<senders {
                group.addTask {
                    for index in 0..<perSender {
                        // Handle = sender, first octet = its sequence number; sizes from 1 to 2000 octets.
                        let packet = aclPacket(handle: UInt16(id), seed: UInt8(index), count: 1 + (id * 131 + index * 47) % 2000)
                        try await sender.send(packet)
                    }
                }
            }
            try await group.waitForAll()
        }
        let packets = await received
        #expect(packets.count == senders * perSender)
        #expect(receiver.diagnosticCount == 0)                    // nothing interleaved: the framing never broke
        for id in 0..<senders {
            let sequence = packets.compactMap { packet -> UInt8? in
                guard case .acl(let acl) = packet, acl.handle == UInt16(id) else { return nil }
                return acl.data.first
            }
            #expect(sequence == (0..<perSender).map { UInt8($0) }, "sender \(id)")
        }
        await sender.close()
        await receiver.close()
    }

    @Test("packets larger than the socket buffers are written in parts, whole and in order, while the peer reads slowly")
    func partialWrites() async throws {
        let fds = try streamPair()
        var small: Int32 = 4096
        #expect(setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &small, socklen_t(MemoryLayout<Int32>.size)) == 0)
        #expect(setsockopt(fds[1], SOL_SOCKET, SO_RCVBUF, &small, socklen_t(MemoryLayout<Int32>.size)) == 0)
        let sender = try H4StreamTransport(adopting: fds[0], name: "sender")
        // Three ACL packets of 65535 octets of data each: each needs many writes and waits for room.
        let big = (0..<3).map { aclPacket(seed: UInt8($0), count: 0xFFFF) }
        let sending = Task { for packet in big { try await sender.send(packet) } }
        // The peer starts reading only once the sender has filled the buffers.
        var reader = H4StreamReader()
        var received: [HCIPacket] = []
        var buffer = [UInt8](repeating: 0, count: 1000)
        while received.count < 3 {
            var entry = pollfd(fd: fds[1], events: Int16(POLLIN), revents: 0)
            _ = poll(&entry, 1, 1000)
            let count = buffer.withUnsafeMutableBytes { read(fds[1], $0.baseAddress, $0.count) }
            guard count > 0 else { continue }
            for element in reader.append(buffer[..<count]) {
                if case .packet(let packet) = element { received.append(packet) } else { Issue.record("skipped \(element)") }
            }
        }
        try await sending.value
        #expect(received == big)
        await sender.close()
        close(fds[1])
    }

    @Test("garbage in the stream: reported on diagnostics and in the counters; the packets around it arrive", arguments: Reader.allCases)
    func garbage(reader: Reader) async throws {
        let fds = try streamPair()
        let host = try reader.transport(fds[0], "host")
        defer { close(fds[1]) }
        writeAll(fds[1], Hex.decode("""
            04 0e 04 01 03 0c 00               # Event: Command Complete (Reset) (offsets 0-6)
            ff ff ff 00                        # garbage (7-10)
            04 0e 04 01 03 0c 00               # Event: Command Complete (Reset) (11-17)
            """)!)
        #expect(await receive(2, from: host) == [try h4Packet(Self.commandComplete), try h4Packet(Self.commandComplete)])
        var diagnostics = host.diagnostics.makeAsyncIterator()
        let expected = H4SkippedOctets(streamOffset: 7, count: 4, reason: .unknownPacketIndicator(0xFF))
        #expect(await diagnostics.next() == expected)
        #expect(host.skippedOctetCount == 4)
        #expect(host.diagnosticCount == 1)
        #expect(host.recentDiagnostics == [expected])
        await host.close()
        #expect(await diagnostics.next() == nil)                  // finishes with the transport
    }

    @Test("the peer closing finishes packets (a packet it cut is reported) and later sends throw closed", arguments: Reader.allCases)
    func peerCloses(reader: Reader) async throws {
        let fds = try streamPair()
        let host = try reader.transport(fds[0], "host")
        writeAll(fds[1], Hex.decode("04 0e 04 01 03 0c 00  04 0e 04 01")!)   // a whole event, then the start of one
        close(fds[1])
        var packets = host.packets.makeAsyncIterator()
        #expect(await packets.next() == (try h4Packet(Self.commandComplete)))
        #expect(await packets.next() == nil)
        #expect(host.recentDiagnostics == [H4SkippedOctets(streamOffset: 7, count: 4, reason: .cutByEndOfStream(type: .event))])
        #expect(host.isClosed)
        #expect(host.endError == nil)
        await #expect(throws: HCITransportError.closed) { try await host.send(try h4Packet(Self.reset)) }
    }

    @Test("close is idempotent: packets finish, waiting and later sends throw closed", arguments: Reader.allCases)
    func closeTwice(reader: Reader) async throws {
        let fds = try streamPair()
        defer { close(fds[1]) }
        var small: Int32 = 4096
        #expect(setsockopt(fds[0], SOL_SOCKET, SO_SNDBUF, &small, socklen_t(MemoryLayout<Int32>.size)) == 0)
        let host = try reader.transport(fds[0], "host")
        // Nobody reads the peer: this send waits for room until the close.
        let waiting = Task { () -> HCITransportError? in
            do throws(HCITransportError) { try await host.send(aclPacket(count: 0xFFFF)); return nil } catch { return error }
        }
        // Let the send reach the descriptor (64 KiB cannot fit in the buffers of an unread
        // socket), then close; had the close come first, the send would be refused as closed too.
        try await Task.sleep(for: .milliseconds(50))
        await host.close()
        await host.close()
        #expect(await waiting.value == .closed)
        var packets = host.packets.makeAsyncIterator()
        #expect(await packets.next() == nil)
        await #expect(throws: HCITransportError.closed) { try await host.send(try h4Packet(Self.reset)) }
        #expect(host.endError == nil)
    }

    @Test("a stream already at its end when the executor starts watching it is no longer watched once dropped")
    func endedBeforeTheWatchWasStored() async throws {
        // The executor's thread may run the handler, find the end and end the stream, before the
        // transport has stored its watch: that watch must still stop, or the descriptor, readable
        // at its end for ever, is reported to a handler with nothing left to read it.
        let executor = HostExecutor(name: "test.h4-watch")
        for _ in 0..<500 {
            let fds = try streamPair()
            #expect(close(fds[1]) == 0)
            _ = try H4StreamTransport(adopting: fds[0], name: "at its end", executor: executor)
        }
        for _ in 0..<2000 where executor.watchCount > 0 { try await Task.sleep(for: .milliseconds(5)) }
        #expect(executor.watchCount == 0, "every watch stopped")
    }

    @Test("a reader thread whose poll(2) fails ends the stream with the error")
    func pollFailureEndsTheStream() async throws {
        let fds = try streamPair()
        defer { close(fds[1]) }
        let host = try H4StreamTransport(adopting: fds[0], name: "poll fails", maximumPacketSize: 4 + 0xFFFF, executor: nil,
                                         waitReadable: { _, _ in -ENOMEM })
        var packets = host.packets.makeAsyncIterator()
        #expect(await packets.next() == nil)
        #expect(host.endError == LinuxBluetoothError(.transfer("waiting to read from poll fails"), code: ENOMEM))
        await #expect(throws: HCITransportError.closed) { try await host.send(try h4Packet(Self.reset)) }
    }

    @Test("adopting a descriptor that is not open is a typed error")
    func badDescriptor() {
        #expect(throws: LinuxBluetoothError(.transfer("opening the H4 stream nothing"), code: EBADF)) {
            _ = try H4StreamTransport(adopting: 9999, name: "nothing")
        }
    }
}
