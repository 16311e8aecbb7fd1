import Glibc
import Testing
import BLECore
@testable import LinuxBluetooth

/// Breaker findings for ``ManagementChannel``: each test failed before its fix.
@Suite("Management channel: breaker findings", .timeLimit(.minutes(1)))
struct ManagementChannelBreakerTests {
    /// The outcomes of the callers, in the order they ended.
    actor Outcomes {
        private(set) var list: [String] = []
        func add(_ outcome: String) { list.append(outcome) }
    }

    /// The real kernel answers Read Controller Information (and others) inside sendmsg(2), so
    /// its answer can reach the channel's reader before the send returns to the channel. Here the
    /// reader runs at high priority and the caller at low priority behind 300 others waiting
    /// their turn on the channel's actor: the answer's job then overtakes the caller's return from
    /// the send. Before the fix the answer found no command waiting, was dropped, and the caller
    /// timed out (about a third of the runs on two cores; 20 runs here).
    @Test("the answer to a command is kept even when it arrives before the caller starts waiting", arguments: 0..<20)
    func answerBeforeWaiting(run: Int) async throws {
        let fds = try seqpacketPair()
        let (channelEnd, kernelEnd) = (fds[0], fds[1])
        // Created at high priority: its reader task inherits it.
        let channel = await Task(priority: .high) { ManagementChannel(socket: BluetoothSocket(adopting: channelEnd)) }.value
        let kernelBearer = SocketATTBearer(socket: BluetoothSocket(adopting: kernelEnd))
        let kernel = Task(priority: .high) {
            // Answers the first command only: Command Complete, Success, Current Settings powered.
            var kernel = ManagementTests.Kernel(kernelBearer)
            let command = try await kernel.nextCommand()
            try await kernel.reply(ManagementPacket(code: 0x0001, controllerIndex: command.controllerIndex,
                                                    parameters: [UInt8(command.code & 0xff), UInt8(command.code >> 8), 0x00, 0x01, 0, 0, 0]))
        }
        let outcomes = Outcomes()
        let callers = (0..<300).map { _ in
            Task(priority: .low) {
                do {
                    _ = try await channel.send(.setPowered(true), to: 0, timeout: .seconds(10))   // long: a loaded machine must not time the second caller out before close
                    await outcomes.add("answered")
                } catch {
                    await outcomes.add("\(error)")
                }
            }
        }
        while await outcomes.list.isEmpty { try await Task.sleep(for: .milliseconds(2)) }
        await channel.close()                                     // the callers still waiting their turn: closed
        for caller in callers { await caller.value }
        try await kernel.value
        await kernelBearer.close()
        #expect(await outcomes.list.first == "answered", "the first command's answer was dropped")
        #expect(await outcomes.list.dropFirst().allSatisfy { $0 == "\(ManagementError.closed)" })
    }

    /// Waiting for the turn and for the answer ignored cancellation: a cancelled caller waited
    /// out its timeout (10 s by default), and every command behind it waited too (a pairing
    /// agent that was stopped kept the channel's turn with its reply).
    @Test("a cancelled command ends at once, whether it waits for the kernel's answer or for its turn; the next one gets its own answer")
    func cancelledCommandsEnd() async throws {
        let (channel, end) = try ManagementTests.channel()
        var kernel = end
        let first = Task { try await channel.send(.setPowered(true), to: 0, timeout: .seconds(50)) }
        #expect(try await kernel.nextCommand() == ManagementCommand.setPowered(true).packet(for: 0))   // not answered yet
        let second = Task { try await channel.send(.setLowEnergy(true), to: 0, timeout: .seconds(50)) }
        for _ in 0..<100_000 where await channel.waitingForTurn == 0 { await Task.yield() }
        try #require(await channel.waitingForTurn == 1)
        second.cancel()
        await #expect(throws: ManagementError.cancelled(command: ManagementCommand.setLowEnergy(true).name)) { try await second.value }
        #expect(await channel.outstanding?.code == ManagementCommand.setPowered(true).code, "the first still waits")
        first.cancel()
        await #expect(throws: ManagementError.cancelled(command: ManagementCommand.setPowered(true).name)) { try await first.value }
        // The next command with the same code waits for the first's answer, which is not its own.
        let third = Task { try await channel.send(.setPowered(false), to: 0, timeout: .seconds(50)) }
        for _ in 0..<100_000 where await channel.waitingForTurn == 0 { await Task.yield() }
        #expect(await channel.waitingForTurn == 1, "the third waits for the first's answer")
        try await kernel.reply(ManagementPacket(code: 0x0001, controllerIndex: 0, parameters: [0x05, 0x00, 0x00, 0x01, 0, 0, 0]))
        // The withdrawn second command was never sent.
        #expect(try await kernel.nextCommand() == ManagementCommand.setPowered(false).packet(for: 0))
        try await kernel.reply(ManagementPacket(code: 0x0001, controllerIndex: 0, parameters: [0x05, 0x00, 0x00, 0x00, 0, 0, 0]))
        #expect(try await third.value == [0x00, 0, 0, 0], "its own answer, not the first's")
        #expect(ManagementError.cancelled(command: "Set Powered on").description == "Set Powered on: cancelled before the kernel answered")
        await channel.close()
    }

    @Test("a command cancelled after it was sent and never answered frees the channel at its timeout")
    func abandonedCommandTimesOut() async throws {
        let (channel, end) = try ManagementTests.channel()
        var kernel = end
        let first = Task { try await channel.send(.setPowered(true), to: 0, timeout: .seconds(3)) }
        _ = try await kernel.nextCommand()                                 // never answered
        first.cancel()
        await #expect(throws: ManagementError.cancelled(command: ManagementCommand.setPowered(true).name)) { try await first.value }
        #expect(await channel.outstanding?.code == ManagementCommand.setPowered(true).code, "the channel is still the first's")
        let next = Task { try await channel.send(.readControllerInformation, to: 0, timeout: .seconds(50)) }
        #expect(try await kernel.nextCommand() == ManagementCommand.readControllerInformation.packet(for: 0))
        try await kernel.reply(ManagementPacket(code: 0x0001, controllerIndex: 0, parameters: [0x04, 0x00, 0x00]))   // Read Controller Information, Success
        #expect(try await next.value == [])
        await channel.close()
    }

    /// A timeout of `.seconds(Int64.max)` made the timer's Task.sleep trap (its deadline has more
    /// seconds than Int64 holds). Run in a child process, so the crash before the fix fails this
    /// test alone.
    @Test("a huge timeout waits for the answer instead of trapping in the timer's sleep")
    func hugeTimeout() async {
        await #expect(processExitsWith: .success) {
            var fds: [Int32] = [0, 0]
            let type = Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_NONBLOCK.rawValue) | Int32(SOCK_CLOEXEC.rawValue)
            guard socketpair(AF_UNIX, type, 0, &fds) == 0 else { exit(EXIT_FAILURE) }
            let channel = ManagementChannel(socket: BluetoothSocket(adopting: fds[0]))
            let kernelBearer = SocketATTBearer(socket: BluetoothSocket(adopting: fds[1]))
            let call = Task { try await channel.send(.setPowered(true), to: 0, timeout: .seconds(Int64.max)) }
            var kernel = ManagementTests.Kernel(kernelBearer)
            let command = try await kernel.nextCommand()
            try await Task.sleep(for: .milliseconds(200))         // the timer is asleep by now
            try await kernel.reply(ManagementPacket(code: 0x0001, controllerIndex: command.controllerIndex,
                                                    parameters: [0x05, 0x00, 0x00, 0x01, 0, 0, 0]))
            let settings = try await call.value
            exit(settings == [0x01, 0, 0, 0] ? EXIT_SUCCESS : EXIT_FAILURE)
        }
    }
}
