import BLECore
import CBluetoothLinux
import Glibc
import HCI
import Host
import Testing
@testable import LinuxBluetooth

/// H4 over TCP on 127.0.0.1: the client, the listener, both directions, large packets, garbage,
/// the peer's end, and the errors that name host and port.
@Suite("H4 over TCP", .timeLimit(.minutes(1)))
struct H4TCPTests {
    /// A listener on a free port, a client connected to it, and the accepted server side.
    static func connectedPair() async throws -> (listener: H4TCPListener, client: H4StreamTransport, server: H4StreamTransport) {
        let listener = try H4TCPListener(host: "127.0.0.1", port: 0)
        #expect(listener.port != 0)
        let client = try await H4StreamTransport.connect(host: "127.0.0.1", port: listener.port)
        var accepted = listener.connections.makeAsyncIterator()
        let server = try #require(await accepted.next())
        return (listener, client, server)
    }

    @Test("client to listener: packets both ways, many of them, in order")
    func bothWays() async throws {
        let (listener, client, server) = try await Self.connectedPair()
        defer { listener.close() }
        #expect(client.name == "TCP 127.0.0.1:\(listener.port)")
        #expect(server.name.hasPrefix("TCP 127.0.0.1:"))
        let reset = try h4Packet("01 03 0c 00")                                // Command: HCI_Reset
        try await client.send(reset)
        #expect(await receive(1, from: server) == [reset])
        // 1000 Command Complete events, each with its own Num_HCI_Command_Packets, then 1000 back.
        let events = try (0..<1000).map { try h4Packet("04 0e 04 \(Hex.encode([UInt8($0 % 256)])) 03 0c 00") }
        async let atClient = receive(1000, from: client)
        for event in events { try await server.send(event) }
        #expect(await atClient == events)
        async let atServer = receive(1000, from: server)
        for event in events { try await client.send(event) }
        #expect(await atServer == events)
        #expect(client.diagnosticCount == 0 && server.diagnosticCount == 0)
        await client.close()
        await server.close()
    }

    @Test("large ACL packets, split across many reads, arrive whole")
    func largeACL() async throws {
        let (listener, client, server) = try await Self.connectedPair()
        defer { listener.close() }
        let packets = (0..<8).map { aclPacket(handle: UInt16($0), seed: UInt8($0), count: 0xFFFF - $0 * 1000) }
        async let received = receive(packets.count, from: server)
        for packet in packets { try await client.send(packet) }
        #expect(await received == packets)
        await client.close()
        await server.close()
    }

    @Test("the server closing finishes the client's packets; the client's sends then throw closed")
    func peerCloses() async throws {
        let (listener, client, server) = try await Self.connectedPair()
        defer { listener.close() }
        let complete = try h4Packet("04 0e 04 01 03 0c 00")                    // Command Complete (Reset)
        try await server.send(complete)
        await server.close()
        var packets = client.packets.makeAsyncIterator()
        #expect(await packets.next() == complete)                             // what came before the end arrives
        #expect(await packets.next() == nil)
        await #expect(throws: HCITransportError.closed) { try await client.send(try h4Packet("01 03 0c 00")) }
        #expect(client.endError == nil)
    }

    @Test("garbage injected mid-stream: skipped and reported, the good packets after it arrive")
    func garbageMidStream() async throws {
        // The controller's LE ACL buffer is 251 octets: a longer ACL header is garbage.
        let listener = try H4TCPListener(port: 0, maximumPacketSize: 4 + 251)
        defer { listener.close() }
        let raw = cbl_tcp_connect("127.0.0.1", listener.port)               // a raw peer: the test writes the octets
        try #require(raw >= 0)
        defer { close(raw) }
        var accepted = listener.connections.makeAsyncIterator()
        let controller = try #require(await accepted.next())
        writeAll(raw, Hex.decode("""
            01 03 0c 00                        # Command: HCI_Reset (offsets 0-3)
            de ad be ef 00 00                  # garbage (4-9)
            02 ff ff ff ff                     # an ACL header announcing 65535 + 4 octets, over 4 + 251 (10-14)
            01 01 10 00                        # Command: Read Local Version Information (15-18)
            """)!)
        writeAll(raw, Hex.decode("01 03 0c 00")!)                             // Command: HCI_Reset (19-22)
        #expect(await receive(3, from: controller) == [try h4Packet("01 03 0c 00"), try h4Packet("01 01 10 00"),
                                                         try h4Packet("01 03 0c 00")])
        var diagnostics = controller.diagnostics.makeAsyncIterator()
        #expect(await diagnostics.next() == H4SkippedOctets(streamOffset: 4, count: 11, reason: .unknownPacketIndicator(0xDE)))
        #expect(controller.skippedOctetCount == 11)
        await controller.close()
    }

    @Test("a refused connection is a typed error naming host:port, saying nothing listens there")
    func refused() async throws {
        // A port that was free a moment ago, and nothing listens on it now.
        var port: UInt16 = 0
        let probe = cbl_tcp_listen("127.0.0.1", 0, 1, &port)
        try #require(probe >= 0)
        close(probe)
        do {
            _ = try await H4StreamTransport.connect(host: "127.0.0.1", port: port)
            Issue.record("connected to a closed port")
        } catch {
            #expect(error.code == ECONNREFUSED)
            #expect(error.operation == .tcp("connecting to 127.0.0.1:\(port)"))
            #expect(error.description.hasPrefix("connecting to 127.0.0.1:\(port): nothing listens there"))
        }
    }

    @Test("a host that is not a numeric address is refused before any connection: EINVAL, saying so")
    func notNumeric() async {
        do {
            _ = try await H4StreamTransport.connect(host: "controller.example", port: 9000)
            Issue.record("connected to a name")
        } catch {
            #expect(error.code == EINVAL)
            #expect(error.description.contains("controller.example:9000"))
            #expect(error.description.contains("numeric IPv4 or IPv6 address"))
        }
    }

    @Test("IPv6 loopback: the client names [::1]:port", .enabled(if: H4TCPTests.hasIPv6Loopback))
    func ipv6() async throws {
        let listener = try H4TCPListener(host: "::1", port: 0)
        defer { listener.close() }
        let client = try await H4StreamTransport.connect(host: "::1", port: listener.port)
        #expect(client.name == "TCP [::1]:\(listener.port)")
        var accepted = listener.connections.makeAsyncIterator()
        let server = try #require(await accepted.next())
        let reset = try h4Packet("01 03 0c 00")
        try await client.send(reset)
        #expect(await receive(1, from: server) == [reset])
        await client.close()
        await server.close()
    }

    /// Whether this machine can bind ::1 (containers often have no IPv6).
    static var hasIPv6Loopback: Bool {
        var port: UInt16 = 0
        let fd = cbl_tcp_listen("::1", 0, 1, &port)
        if fd >= 0 { close(fd) }
        return fd >= 0
    }

    @Test("a port already taken: EADDRINUSE, naming host:port")
    func portTaken() throws {
        let first = try H4TCPListener(port: 0)
        defer { first.close() }
        do {
            _ = try H4TCPListener(host: "127.0.0.1", port: first.port)
            Issue.record("bound a taken port")
        } catch {
            #expect(error.code == EADDRINUSE)
            #expect(error.description.hasPrefix("listening on 127.0.0.1:\(first.port): the port is taken"))
        }
    }

    @Test("closing the listener finishes its connections; an accepted transport stays open")
    func listenerClose() async throws {
        let (listener, client, server) = try await Self.connectedPair()
        listener.close()
        listener.close()
        var connections = listener.connections.makeAsyncIterator()
        #expect(await connections.next() == nil)
        let reset = try h4Packet("01 03 0c 00")
        try await client.send(reset)
        #expect(await receive(1, from: server) == [reset])
        await client.close()
        await server.close()
    }
}
