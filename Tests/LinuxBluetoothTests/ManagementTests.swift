import Glibc
import Testing
import BLECore
@testable import LinuxBluetooth

/// The management channel's codec, and the channel itself against a scripted "kernel" on the
/// other end of a Unix socket pair (the real channel runs in the kernel lane).
@Suite("Management channel", .timeLimit(.minutes(1)))
struct ManagementTests {
    @Test("packets: header little-endian, parameters; malformed ones are typed errors")
    func packets() throws {
        let setPowered = ManagementCommand.setPowered(true).packet(for: 1)
        #expect(Hex.encode(setPowered.encoded) == "0500" + "0100" + "0100" + "01")
        #expect(try ManagementPacket(decoding: setPowered.encoded) == setPowered)
        #expect(Hex.encode(ManagementCommand.setLowEnergy(false).packet(for: 0).encoded) == "0d00000001" + "0000")
        #expect(Hex.encode(ManagementCommand.readControllerInformation.packet(for: 0).encoded) == "040000000000")
        #expect(throws: BLEDecodingError.self) { try ManagementPacket(decoding: [0x01, 0x00, 0x00, 0x00, 0x05, 0x00, 0x01]) }
        #expect(throws: BLEDecodingError.self) { try ManagementPacket(decoding: [0x01, 0x00, 0x00]) }
        #expect(throws: BLEDecodingError.self) { try ManagementPacket(decoding: [0x06, 0x00, 0x00, 0x00, 0x00, 0x00, 0xff]) }
    }

    @Test("events: Command Complete, Command Status, New Settings, others kept raw")
    func events() throws {
        let complete = ManagementPacket(code: 0x0001, controllerIndex: 0, parameters: [0x05, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00])
        #expect(try ManagementEvent(complete) == .commandComplete(command: 0x0005, status: .success, returnParameters: [0x01, 0x02, 0x00, 0x00]))
        let status = ManagementPacket(code: 0x0002, controllerIndex: 0, parameters: [0x05, 0x00, 0x11])
        #expect(try ManagementEvent(status) == .commandStatus(command: 0x0005, status: .invalidIndex))
        let settings = ManagementPacket(code: 0x0006, controllerIndex: 0, parameters: [0x81, 0x02, 0x00, 0x00])
        guard case .newSettings(let s) = try ManagementEvent(settings) else { Issue.record("not New Settings"); return }
        #expect(s == [.powered, .brEDR, .lowEnergy])
        #expect(s.description == "powered br/edr le")
        #expect(try ManagementEvent(ManagementPacket(code: 0x0004, controllerIndex: 2)) == .other(code: 0x0004, parameters: []))
        #expect(throws: BLEDecodingError.self) { try ManagementEvent(ManagementPacket(code: 0x0001, controllerIndex: 0, parameters: [0x05])) }
        #expect(ManagementStatus.rfkilled.description == "RFKilled (0x12)")
        #expect(ManagementStatus(rawValue: 0x7f).description == "Unknown Status (0x7f)")
    }

    @Test("Read Controller Information: address, version, settings, name; short replies are typed errors")
    func controllerInformation() throws {
        var reply: [UInt8] = [0x00, 0x00, 0x00, 0x01, 0xAA, 0x00, 0x0d, 0x3f, 0x00]
        reply += [0xff, 0xfe, 0x00, 0x00] + [0x81, 0x02, 0x00, 0x00] + [0x00, 0x00, 0x00]
        reply += Array("BlueZ".utf8) + [UInt8](repeating: 0, count: 244) + [UInt8](repeating: 0, count: 11)
        let info = try ManagementControllerInformation(decoding: reply)
        #expect(info.address.description == "00:AA:01:00:00:00")
        #expect(info.bluetoothVersion == 0x0d)
        #expect(info.manufacturer == 0x003f)
        #expect(info.currentSettings == [.powered, .brEDR, .lowEnergy])
        #expect(info.supportedSettings.contains(.lowEnergy))
        #expect(info.name == "BlueZ")
        #expect(throws: BLEDecodingError.self) { try ManagementControllerInformation(decoding: Array(reply.prefix(279))) }
    }

    /// The test's "kernel": the other end of a socket pair, one packet per message (a
    /// SocketATTBearer carries any SEQPACKET messages, not only ATT PDUs).
    struct Kernel {
        let end: SocketATTBearer
        var packets: AsyncStream<[UInt8]>.Iterator

        init(_ end: SocketATTBearer) {
            self.end = end
            packets = end.received.makeAsyncIterator()
        }

        mutating func nextCommand() async throws -> ManagementPacket {
            try ManagementPacket(decoding: try #require(await packets.next()))
        }

        func reply(_ packet: ManagementPacket) async throws {
            try await end.send(packet.encoded)
        }
    }

    static func channel() throws -> (ManagementChannel, Kernel) {
        let fds = try seqpacketPair()
        return (ManagementChannel(socket: BluetoothSocket(adopting: fds[0])),
                Kernel(SocketATTBearer(socket: BluetoothSocket(adopting: fds[1]))))
    }

    @Test("a command gets the answer for its opcode and index; other events pass by")
    func commandAnswer() async throws {
        let (channel, end) = try Self.channel()
        var kernel = end
        let call = Task { try await channel.set(.setPowered(true), on: 1) }
        #expect(try await kernel.nextCommand() == ManagementCommand.setPowered(true).packet(for: 1))
        try await kernel.reply(ManagementPacket(code: 0x0006, controllerIndex: 1, parameters: [0x81, 0x02, 0, 0]))          // New Settings
        try await kernel.reply(ManagementPacket(code: 0x0001, controllerIndex: 0, parameters: [0x05, 0x00, 0x00, 0, 0, 0, 0])) // another index
        try await kernel.reply(ManagementPacket(code: 0x0001, controllerIndex: 1, parameters: [0x05, 0x00, 0x00, 0x81, 0x02, 0, 0]))
        #expect(try await call.value == [.powered, .brEDR, .lowEnergy])
        await channel.close()
        await kernel.end.close()
    }

    @Test("a failing status, a timeout and closing are typed errors with remedies")
    func failures() async throws {
        let (channel, end) = try Self.channel()
        var kernel = end
        let rejected = Task { try await channel.set(.setLowEnergy(true), on: 7) }
        _ = try await kernel.nextCommand()
        try await kernel.reply(ManagementPacket(code: 0x0002, controllerIndex: 7, parameters: [0x0d, 0x00, 0x11]))
        await #expect(throws: ManagementError.status(command: "Set Low Energy on", index: 7, .invalidIndex)) { try await rejected.value }
        #expect(ManagementError.status(command: "Set Low Energy on", index: 7, .invalidIndex).description
                == "Set Low Energy on on hci7: Invalid Index (0x11): no such adapter; `blectl list` shows the adapters")

        await #expect(throws: ManagementError.timeout(command: "Read Controller Information")) {
            _ = try await channel.send(.readControllerInformation, to: 0, timeout: .milliseconds(50))
        }
        _ = try await kernel.nextCommand()

        let pending = Task { try await channel.send(.readControllerInformation, to: 0) }
        _ = try await kernel.nextCommand()
        await channel.close()
        await #expect(throws: ManagementError.closed) { try await pending.value }
        await #expect(throws: ManagementError.closed) { try await channel.send(.setPowered(false), to: 0) }
        await kernel.end.close()
    }

    @Test("opening the real channel here: a typed error naming the control channel (or it opens)")
    func openHere() async {
        do {
            let channel = try ManagementChannel()
            await channel.close()
        } catch {
            guard case .system(let system) = error else { Issue.record("\(error)"); return }
            #expect(system.description.hasPrefix("opening the HCI control channel: "))
        }
    }
}

@Suite("Management channel: power", .timeLimit(.minutes(1)))
struct ManagementPowerTests {
    static func information(current: ManagementSettings) -> [UInt8] {
        var reply: [UInt8] = [0x00, 0x00, 0x00, 0x01, 0xAA, 0x00, 0x0d, 0x3f, 0x00]
        let supported = ManagementSettings([.powered, .brEDR, .lowEnergy, .advertising]).rawValue
        reply += withUnsafeBytes(of: supported.littleEndian) { Array($0) } + withUnsafeBytes(of: current.rawValue.littleEndian) { Array($0) }
        return reply + [0, 0, 0] + [UInt8](repeating: 0, count: 249 + 11)
    }

    static func complete(_ command: UInt16, _ index: UInt16, _ parameters: [UInt8]) -> ManagementPacket {
        ManagementPacket(code: 0x0001, controllerIndex: index, parameters: [UInt8(command & 0xff), UInt8(command >> 8), 0x00] + parameters)
    }

    @Test("powerOn turns LE on first when it is off (pitfall of HCIDEVUP), then powers on")
    func powerOn() async throws {
        let (channel, end) = try ManagementTests.channel()
        var kernel = end
        let call = Task { try await channel.powerOn(1) }
        #expect(try await kernel.nextCommand() == ManagementCommand.readControllerInformation.packet(for: 1))
        try await kernel.reply(Self.complete(0x0004, 1, Self.information(current: [.brEDR])))
        #expect(try await kernel.nextCommand() == ManagementCommand.setLowEnergy(true).packet(for: 1))
        try await kernel.reply(Self.complete(0x000D, 1, [0x80, 0x02, 0, 0]))
        #expect(try await kernel.nextCommand() == ManagementCommand.setPowered(true).packet(for: 1))
        try await kernel.reply(Self.complete(0x0005, 1, [0x81, 0x02, 0, 0]))
        #expect(try await call.value == [.powered, .brEDR, .lowEnergy])
        await channel.close()
        await kernel.end.close()
    }

    @Test("an adapter already powered with LE on gets no further command")
    func alreadyOn() async throws {
        let (channel, end) = try ManagementTests.channel()
        var kernel = end
        let call = Task { try await channel.powerOn(0) }
        _ = try await kernel.nextCommand()
        try await kernel.reply(Self.complete(0x0004, 0, Self.information(current: [.powered, .lowEnergy])))
        #expect(try await call.value == [.powered, .lowEnergy])
        await channel.close()
        await kernel.end.close()
    }
}
