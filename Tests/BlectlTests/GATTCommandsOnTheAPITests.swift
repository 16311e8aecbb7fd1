import Foundation
import Testing
import BLE
import BLECore
import Capture
import GATT
import HCI
import Host
import VirtualRadio
@testable import blectl

/// blectl's GATT client commands as whole commands, in this process, on a virtual radio: the
/// command's CentralManager (`.virtual(radio)`) against a GATT server on the lane's database,
/// served by a host-mode stack on another controller of the same radio.
@Suite("blectl gatt, read, write, subscribe on the virtual radio", .timeLimit(.minutes(2)))
struct GATTCommandsOnTheAPITests {
    /// The peer: the kernel lane's database, served and advertised on its own controller.
    final class Peer: Sendable {
        let radio: VirtualRadio
        let stack: HostStack
        let server: GATTServer
        /// Kept: it advertises again after each connection while it lives.
        let advertiser: LEAdvertiser
        let links: Task<Void, Never>
        let linkList = LinkList()

        actor LinkList {
            var links: [LEConnection] = []
            func add(_ link: LEConnection) { links.append(link) }
        }

        init(seed: UInt64) async throws {
            radio = VirtualRadio(seed: seed, timing: .paced(speed: 10))
            stack = try await HostStack.start(on: radio.makeController().attach(), clock: radio.clock)
            let database = try GATTDatabase(jsonFile: BlectlRun.root.appendingPathComponent("Tests/Kernel/databases/lane.json").path)
            server = try GATTServer(database: database)
            let (server, stack, linkList, clock) = (server, stack, linkList, radio.clock)
            links = Task {
                for await link in stack.connections.incomingConnections {
                    await linkList.add(link)
                    _ = await server.connect(link.att, clock: clock)
                }
            }
            advertiser = stack.makeAdvertiser()
            try await advertiser.start(stack.advertisingParameters(advertisingData: [.flags([.leGeneralDiscoverableMode, .brEDRNotSupported])]))
        }

        var address: String { stack.controller.address.description }

        /// The value handle of the characteristic `uuid` on the server.
        func valueHandle(_ uuid: String) async -> UInt16 {
            await server.database.characteristics(BluetoothUUID(uuid)!)[0].valueHandle
        }

        func shutDown() async {
            links.cancel()
            await stack.close()
            radio.shutDown()
        }
    }

    /// Runs `procedure` of `syntax` with `arguments` on `radio`, its output in a file.
    static func run(_ syntax: CommandSyntax, _ procedure: @escaping GATTCommands.Procedure, _ arguments: [String],
                    on radio: VirtualRadio, output path: String? = nil,
                    capture: String? = nil) async throws -> (status: Int32, lines: [String]) {
        let file = path ?? FileManager.default.temporaryDirectory.appendingPathComponent("blectl-\(UUID().uuidString).out").path
        defer { if path == nil { try? FileManager.default.removeItem(atPath: file) } }
        try #require(FileManager.default.createFile(atPath: file, contents: nil))
        let descriptor = open(file, O_WRONLY | O_APPEND | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var output = OutputBuffer(fileDescriptor: descriptor)
        var context = KernelContext()
        context.transport = .virtual(radio)
        context.capture = capture
        let status = await GATTCommands.run(syntax, procedure, arguments: arguments, context: context, output: &output)
        output.flush()
        return (status, try lines(of: file))
    }

    static func lines(of file: String) throws -> [String] {
        try String(contentsOfFile: file, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    static let battery = "2A19"
    static let long = "A5F10002-6C1B-4B8E-9E3A-4C696E757842"
    static let longWrite = "A5F10003-6C1B-4B8E-9E3A-4C696E757842"
    static let notify = "A5F10004-6C1B-4B8E-9E3A-4C696E757842"
    static let indicate = "A5F10005-6C1B-4B8E-9E3A-4C696E757842"

    @Test("gatt prints every service, characteristic and descriptor at the server's handles")
    func tree() async throws {
        let peer = try await Peer(seed: 101)
        let (status, lines) = try await Self.run(GATTCommands.gattSyntax, GATTCommands.gatt, [peer.address, "--random"], on: peer.radio)
        #expect(status == 0)
        let services = await peer.server.database.services
        let serviceLines = lines.filter { $0.hasPrefix("Primary Service") || $0.hasPrefix("Secondary Service") }
        #expect(serviceLines == services.map {
            "\($0.isPrimary ? "Primary" : "Secondary") Service \($0.uuid.descriptionWithName) \(Hex.hex16($0.handle))...\(Hex.hex16($0.endGroupHandle))"
        })
        let level = await peer.valueHandle(Self.battery)
        #expect(lines.contains("  Characteristic 2A19 (Battery Level) value \(Hex.hex16(level)) 0x02 [read]"), "\(lines)")
        let notifying = await peer.valueHandle(Self.notify)
        #expect(lines.contains("    Descriptor \(Hex.hex16(notifying + 1)) 2902 (Client Characteristic Configuration)"), "\(lines)")
        #expect(!lines.contains { $0.hasPrefix("worked around") }, "our server answers every optional step")
        await peer.shutDown()
    }

    @Test("read by UUID and by handle (value whole, 512 octets over ATT_MTU 23), write long, read back")
    func readAndWrite() async throws {
        let peer = try await Peer(seed: 102)
        let level = await peer.valueHandle(Self.battery)
        let byUUID = try await Self.run(GATTCommands.readSyntax, GATTCommands.read, [peer.address, Self.battery, "--random"], on: peer.radio)
        #expect(byUUID.status == 0)
        #expect(byUUID.lines == ["\(Hex.hex16(level)): 64"])
        let byHandle = try await Self.run(GATTCommands.readSyntax, GATTCommands.read, [peer.address, Hex.hex16(level), "--random"], on: peer.radio)
        #expect(byHandle.lines == byUUID.lines)
        let long = try await Self.run(GATTCommands.readSyntax, GATTCommands.read, [peer.address, Self.long, "--random", "--mtu", "23"], on: peer.radio)
        let expected = Hex.encode((0..<512).map { UInt8(truncatingIfNeeded: $0) })
        #expect(long.lines.first?.hasSuffix(": " + expected) == true, "\(long.lines)")
        let value = Hex.encode((0..<200).map { UInt8(truncatingIfNeeded: $0 * 7 + 3) })
        let written = try await Self.run(GATTCommands.writeSyntax, GATTCommands.write, [peer.address, Self.longWrite, value, "--random", "--mtu", "23"],
                                         on: peer.radio)
        #expect(written.status == 0)
        #expect(written.lines == ["wrote 200 octets to \(Hex.hex16(await peer.valueHandle(Self.longWrite)))"])
        let back = try await Self.run(GATTCommands.readSyntax, GATTCommands.read, [peer.address, Self.longWrite, "--random"], on: peer.radio)
        #expect(back.lines.first?.hasSuffix(": " + value) == true, "\(back.lines)")
        await peer.shutDown()
    }

    @Test("what the peer does not have, or refuses, exits 1 before or without writing")
    func failures() async throws {
        let peer = try await Peer(seed: 103)
        let missing = try await Self.run(GATTCommands.readSyntax, GATTCommands.read, [peer.address, "0xFFF0", "--random"], on: peer.radio)
        #expect(missing.status == 1)
        #expect(missing.lines.isEmpty)
        let unwritable = try await Self.run(GATTCommands.writeSyntax, GATTCommands.write, [peer.address, Self.battery, "01", "--random"], on: peer.radio)
        #expect(unwritable.status == 1, "Battery Level is read-only: Write Not Permitted")
        let withoutResponse = try await Self.run(GATTCommands.writeSyntax, GATTCommands.write,
                                                 [peer.address, Self.longWrite, "01", "--random", "--without-response"], on: peer.radio)
        #expect(withoutResponse.status == 1, "no Write Without Response property: nothing is sent")
        let secure = try await Self.run(GATTCommands.readSyntax, GATTCommands.read, [peer.address, Self.battery, "--random", "--security", "medium"],
                                        on: peer.radio)
        #expect(secure.status == 1, "host mode cannot pair")
        let nobody = try await Self.run(GATTCommands.readSyntax, GATTCommands.read, ["C0:FF:EE:00:00:01", Self.battery, "--random", "--timeout", "2"],
                                        on: peer.radio)
        #expect(nobody.status == 1, "no such device: the connection times out")
        await peer.shutDown()
    }

    @Test("subscribe prints each notification (JSON) and indication with its kind; the link dropping ends it with exit 1")
    func subscribe() async throws {
        for (uuid, flags, kind) in [(Self.notify, [String](), "notification"), (Self.indicate, ["--indicate"], "indication")] {
            let peer = try await Peer(seed: 104)
            let file = FileManager.default.temporaryDirectory.appendingPathComponent("blectl-\(UUID().uuidString).out").path
            defer { try? FileManager.default.removeItem(atPath: file) }
            let radio = peer.radio
            let running = Task {
                try await Self.run(GATTCommands.subscribeSyntax, GATTCommands.subscribe, [peer.address, uuid, "--random", "--json"] + flags,
                                   on: radio, output: file)
            }
            let handle = await peer.valueHandle(uuid)
            try await Self.waitForLine(in: file) { $0.contains(#""subscribed""#) }
            #expect(try Self.lines(of: file).first == #"{"subscribed":"\#(uuid)","handle":\#(handle)}"#)
            if kind == "notification" {
                _ = try await peer.server.notify([0xC0, 0xFF, 0xEE], for: handle)
            } else {
                _ = try await peer.server.indicate([0xC0, 0xFF, 0xEE], for: handle)
            }
            try await Self.waitForLine(in: file) { $0.contains("c0ffee") }
            #expect(try Self.lines(of: file).last == #"{"uuid":"\#(uuid)","handle":\#(handle),"kind":"\#(kind)","value":"c0ffee"}"#)
            for link in await peer.linkList.links { _ = try? await link.disconnect() }
            let (status, _) = try await running.value
            #expect(status == 1, "the link dropped under the subscription")
            await peer.shutDown()
        }
    }

    @Test("subscribe: Ctrl-C writes the CCCD back to 0 and disconnects only once the server has answered the write")
    func interruptedSubscribe() async throws {
        for (uuid, flags) in [(Self.notify, [String]()), (Self.indicate, ["--indicate"])] {
            let peer = try await Peer(seed: 105)
            let directory = FileManager.default.temporaryDirectory
            let file = directory.appendingPathComponent("blectl-\(UUID().uuidString).out").path
            let capture = directory.appendingPathComponent("blectl-\(UUID().uuidString).btsnoop").path
            defer {
                try? FileManager.default.removeItem(atPath: file)
                try? FileManager.default.removeItem(atPath: capture)
            }
            let radio = peer.radio
            let trigger = InterruptTrigger()
            let running = Task {
                try await InterruptTrigger.$current.withValue(trigger) {
                    try await Self.run(GATTCommands.subscribeSyntax, GATTCommands.subscribe, [peer.address, uuid, "--random", "--json"] + flags,
                                       on: radio, output: file, capture: capture)
                }
            }
            try await Self.waitForLine(in: file) { $0.contains(#""subscribed""#) }
            // The command watches for Ctrl-C right after it says it subscribed.
            let deadline = ContinuousClock.now + .seconds(20)
            while !trigger.isArmed && ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(5)) }
            try #require(trigger.isArmed)
            trigger.fire()
            let (status, _) = try await running.value
            #expect(status == 0, "Ctrl-C ends a subscription with exit 0")

            // In the central's capture: the CCCD write (ATT_WRITE_REQ of 00 00), its answer
            // (ATT_WRITE_RSP), then HCI_Disconnect; the answer must come before the disconnection.
            let records = try CaptureFile(contentsOf: capture).readAll().records
            let handle = await peer.valueHandle(uuid)
            func attPDU(_ record: CaptureRecord) -> [UInt8]? {
                // HCI ACL: handle and flags (2), length (2); L2CAP B-frame: length (2), CID 0x0004 (2).
                guard case .hci(let type, let payload) = record.packet, type == .acl, payload.count > 8,
                      payload[6] == 0x04, payload[7] == 0x00 else { return nil }
                return Array(payload[8...])
            }
            let unsubscribe = records.lastIndex { record in
                guard record.direction == .hostToController, let pdu = attPDU(record) else { return false }
                // ATT_WRITE_REQ (0x12) to the CCCD after the value (the lane database's layout) with 00 00.
                return pdu == [0x12, UInt8(truncatingIfNeeded: handle + 1), UInt8(truncatingIfNeeded: (handle + 1) >> 8), 0x00, 0x00]
            }
            let disconnect = records.firstIndex { record in
                guard record.direction == .hostToController, case .hci(let type, let payload) = record.packet else { return false }
                return type == .command && payload.starts(with: [0x06, 0x04])     // HCI_Disconnect, OCF 0x006 OGF 0x01
            }
            let unsubscribed = try #require(unsubscribe, "the CCCD was written back to 00 00")
            let disconnected = try #require(disconnect, "the command disconnected")
            let answer = records[unsubscribed...].firstIndex { record in
                record.direction == .controllerToHost && attPDU(record)?.first == 0x13      // ATT_WRITE_RSP
            }
            #expect(unsubscribed < disconnected, "the write went out before the disconnection")
            #expect(answer.map { $0 < disconnected } == true,
                    "the server's Write Response arrived before the disconnection (write at \(unsubscribed), answer at \(answer.map(String.init) ?? "none"), disconnect at \(disconnected))")
            await peer.shutDown()
        }
    }

    /// Waits (up to 20 s) until a line of `file` passes `matches`.
    static func waitForLine(in file: String, _ matches: (String) -> Bool) async throws {
        let deadline = ContinuousClock.now + .seconds(20)
        while ContinuousClock.now < deadline {
            if (try? lines(of: file))?.contains(where: matches) == true { return }
            try await Task.sleep(for: .milliseconds(20))
        }
        Issue.record("no such line in \((try? lines(of: file)) ?? [])")
    }
}
