import Glibc
import Testing
import BLECore
@testable import LinuxBluetooth

/// User Confirmation Request and the Just Works agent, against the scripted "kernel" of
/// ManagementTests (the real one answers the kernel's SMP in the lane's scenario 60).
@Suite("Management channel: Just Works pairing agent", .timeLimit(.minutes(1)))
struct PairingAgentTests {
    /// 00:AA:01:01:00:01, LE public.
    static let hci1 = ManagementAddress(address: BluetoothAddress(0x00_AA_01_01_00_01), addressType: ManagementAddress.lePublic)

    static func request(_ peer: ManagementAddress, hint: Bool, value: UInt32 = 0, index: UInt16 = 0) -> ManagementPacket {
        ManagementPacket(code: 0x000F, controllerIndex: index,
                         parameters: ManagementUserConfirmationRequest(peer: peer, confirmHint: hint, value: value).encoded)
    }

    @Test("User Confirmation Request decodes field by field; short or long parameters are typed errors")
    func requestCodec() throws {
        let parameters = try #require(Hex.decode(
            "010001 01aa00" +    // Address 00:AA:01:01:00:01 (least significant octet first)
            "01" +               // Address_Type 0x01: LE public
            "01" +               // Confirm_Hint 0x01: Just Works, a yes or no only
            "00000000"))         // Value 0
        guard case .userConfirmationRequest(let request) = try ManagementEvent(ManagementPacket(code: 0x000F, controllerIndex: 0, parameters: parameters)) else {
            Issue.record("not a User Confirmation Request"); return
        }
        #expect(request.peer == Self.hci1)
        #expect(request.peer.description == "00:AA:01:01:00:01 (LE public)")
        #expect(request.confirmHint)
        #expect(request.value == 0)
        #expect(request.encoded == parameters)
        for length in 0..<parameters.count {
            #expect(throws: BLEDecodingError.self) {
                try ManagementEvent(ManagementPacket(code: 0x000F, controllerIndex: 0, parameters: Array(parameters.prefix(length))))
            }
        }
        #expect(throws: BLEDecodingError.self) { try ManagementEvent(ManagementPacket(code: 0x000F, controllerIndex: 0, parameters: parameters + [0])) }
        let comparison = ManagementUserConfirmationRequest(peer: Self.hci1, confirmHint: false, value: 123_456)
        #expect(Hex.encode(comparison.encoded) == "010001 01aa00 01 00 40e20100".replacingOccurrences(of: " ", with: ""))
    }

    @Test("User Confirmation Reply and Negative Reply: opcode, index, Address, Address_Type")
    func replies() {
        #expect(Hex.encode(ManagementCommand.userConfirmationReply(Self.hci1).packet(for: 1).encoded) == "1c00" + "0100" + "0700" + "01000101aa00" + "01")
        #expect(Hex.encode(ManagementCommand.userConfirmationNegativeReply(Self.hci1).packet(for: 0).encoded) == "1d00" + "0000" + "0700" + "01000101aa00" + "01")
        #expect(ManagementCommand.userConfirmationReply(Self.hci1).name == "User Confirmation Reply for 00:AA:01:01:00:01 (LE public)")
    }

    @Test("events(): each subscriber gets every event; ending one leaves the others; close finishes all, and later ones at once")
    func eventSubscribers() async throws {
        let (channel, end) = try ManagementTests.channel()
        let kernel = end
        var first = channel.events().makeAsyncIterator()
        var second = channel.events().makeAsyncIterator()
        let dropped = Task { for await _ in channel.events() {} }      // a subscriber that goes away
        dropped.cancel()
        _ = await dropped.value
        try await kernel.reply(ManagementPacket(code: 0x0006, controllerIndex: 2, parameters: [0x81, 0x02, 0, 0]))   // New Settings, hci2
        let settings = ManagementEvent.newSettings([.powered, .brEDR, .lowEnergy])
        #expect(await first.next().map { [$0.controllerIndex] } == [2])
        #expect(await second.next()?.event == settings)
        await channel.close()
        #expect(await first.next() == nil)
        #expect(await second.next() == nil)
        var late = channel.events().makeAsyncIterator()
        #expect(await late.next() == nil, "a subscriber after close is finished at once")
        await kernel.end.close()
    }

    @Test("which requests the agent accepts: Just Works, LE, the peer asked for")
    func accepts() {
        let random = ManagementAddress(address: BluetoothAddress(0xC0_00_00_00_00_01), addressType: ManagementAddress.leRandom)
        let brEDR = ManagementAddress(address: Self.hci1.address, addressType: ManagementAddress.brEDR)
        func request(_ peer: ManagementAddress, _ hint: Bool) -> ManagementUserConfirmationRequest {
            ManagementUserConfirmationRequest(peer: peer, confirmHint: hint, value: 0)
        }
        #expect(JustWorksPairingAgent.accepts(request(Self.hci1, true), from: nil))
        #expect(JustWorksPairingAgent.accepts(request(random, true), from: nil))
        #expect(JustWorksPairingAgent.accepts(request(Self.hci1, true), from: Self.hci1.address))
        #expect(!JustWorksPairingAgent.accepts(request(random, true), from: Self.hci1.address), "another peer")
        #expect(!JustWorksPairingAgent.accepts(request(Self.hci1, false), from: nil), "numeric comparison: a user must check the value")
        #expect(!JustWorksPairingAgent.accepts(request(brEDR, true), from: nil), "BR/EDR")
    }

    @Test("the agent answers the Just Works request for its controller and peer, and nothing else")
    func agent() async throws {
        let (channel, end) = try ManagementTests.channel()
        var kernel = end
        let (answers, answered) = AsyncStream.makeStream(of: ManagementAddress.self)
        let other = ManagementAddress(address: BluetoothAddress(0x00_AA_01_02_00_02), addressType: ManagementAddress.lePublic)
        let agent = JustWorksPairingAgent(channel: channel, index: 0, peer: Self.hci1.address) { peer, error in
            if error == nil { answered.yield(peer) }
        }
        try await kernel.reply(ManagementPacket(code: 0x0006, controllerIndex: 0, parameters: [0x81, 0x02, 0, 0]))   // New Settings
        try await kernel.reply(Self.request(Self.hci1, hint: true, index: 1))        // another controller
        try await kernel.reply(Self.request(Self.hci1, hint: false, value: 42))      // numeric comparison
        try await kernel.reply(Self.request(other, hint: true))                      // another peer
        try await kernel.reply(ManagementPacket(code: 0x000F, controllerIndex: 0, parameters: [0x01]))   // malformed
        try await kernel.reply(Self.request(Self.hci1, hint: true))                  // this one
        // The first command the kernel sees is the reply to the last request: none of the others got one.
        #expect(try await kernel.nextCommand() == ManagementCommand.userConfirmationReply(Self.hci1).packet(for: 0))
        try await kernel.reply(ManagementPacket(code: 0x0001, controllerIndex: 0, parameters: [0x1c, 0x00, 0x00] + Self.hci1.encoded))
        var iterator = answers.makeAsyncIterator()
        #expect(await iterator.next() == Self.hci1)
        agent.stop()
        await channel.close()
        await kernel.end.close()
    }

    /// The kernel answers a management command within the sendmsg call itself, so the answer can
    /// be read before the sender waits for it (the lane's serve lost its User Confirmation
    /// Reply's Command Complete that way, and the reply then "failed" when the channel closed).
    /// Here the channel's send is held up on a full socket while the answer arrives.
    @Test("an answer that arrives while the command is still being sent is kept")
    func answerBeforeWaiting() async throws {
        let fds = try seqpacketPair()
        defer { close(fds[1]) }
        // Fill the channel's direction until the socket refuses more (EAGAIN): its next send waits.
        let filler = [UInt8](repeating: 0, count: 512)
        var queued = 0
        while filler.withUnsafeBytes({ send(fds[0], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 { queued += 1 }
        try #require(queued > 0)
        let channel = ManagementChannel(socket: BluetoothSocket(adopting: fds[0]))
        let call = Task { try await channel.send(.userConfirmationReply(Self.hci1), to: 0, timeout: .seconds(20)) }
        var waited = 0
        while await channel.outstanding == nil, waited < 2000 { try await Task.sleep(for: .milliseconds(5)); waited += 1 }
        #expect(await channel.outstanding?.code == 0x001C)
        // The kernel's answer, before the command could even be written.
        let answer = ManagementPacket(code: 0x0001, controllerIndex: 0, parameters: [0x1c, 0x00, 0x00] + Self.hci1.encoded).encoded
        #expect(answer.withUnsafeBytes { send(fds[1], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) } == answer.count)
        waited = 0
        while await channel.outstanding?.answered != true, waited < 2000 { try await Task.sleep(for: .milliseconds(5)); waited += 1 }
        #expect(await channel.outstanding?.answered == true)
        // Drain: the command goes out, and the call returns the answer it already had.
        var buffer = [UInt8](repeating: 0, count: 1024)
        var sawCommand = false
        while !sawCommand {
            let count = buffer.withUnsafeMutableBytes { recv(fds[1], $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }
            if count > 0, Array(buffer.prefix(count)) == ManagementCommand.userConfirmationReply(Self.hci1).packet(for: 0).encoded { sawCommand = true }
            if count <= 0 { try await Task.sleep(for: .milliseconds(5)) }
        }
        #expect(try await call.value == Self.hci1.encoded)
        await channel.close()
    }

    @Test("a refused reply reaches the callback as the typed error")
    func refused() async throws {
        let (channel, end) = try ManagementTests.channel()
        var kernel = end
        let (errors, failed) = AsyncStream.makeStream(of: ManagementError.self)
        let agent = JustWorksPairingAgent(channel: channel, index: 0) { _, error in
            if let error { failed.yield(error) }
        }
        try await kernel.reply(Self.request(Self.hci1, hint: true))
        _ = try await kernel.nextCommand()
        // Command Complete with status Invalid Parameters (0x0D): the kernel refused the reply.
        try await kernel.reply(ManagementPacket(code: 0x0001, controllerIndex: 0, parameters: [0x1c, 0x00, 0x0d] + Self.hci1.encoded))
        var iterator = errors.makeAsyncIterator()
        #expect(await iterator.next() == .status(command: "User Confirmation Reply for 00:AA:01:01:00:01 (LE public)", index: 0, .invalidParameters))
        agent.stop()
        await channel.close()
        await kernel.end.close()
    }
}
