import Glibc
import Testing
import BLECore
@testable import LinuxBluetooth

/// The Just Works agent's lifetime on one management channel (the scripted "kernel" of
/// ManagementTests).
@Suite("Management channel: Just Works agent lifetime (breaker 4)", .timeLimit(.minutes(1)))
struct PairingAgentBreaker2Tests {
    /// ``JustWorksPairingAgent/stop()`` leaves the channel open for its owner; stopping cancelled
    /// the task iterating the channel's one events stream, and cancelling an AsyncStream's
    /// iteration ends the stream for good: a second agent on the same, still open channel never
    /// saw a request, and the kernel's SMP waited out its 30 s timeout (Core v5.4, Vol 3, Part H,
    /// 3.4). Each agent now subscribes to ``ManagementChannel/events()`` on its own.
    @Test("a second agent on a channel whose first agent stopped answers the Just Works request")
    func secondAgentAfterStop() async throws {
        let (channel, kernel) = try ManagementTests.channel()
        let first = JustWorksPairingAgent(channel: channel, index: 0)
        try await Task.sleep(for: .milliseconds(50))        // the first agent is iterating
        first.stop()
        try await Task.sleep(for: .milliseconds(50))
        let second = JustWorksPairingAgent(channel: channel, index: 0)
        try await kernel.reply(PairingAgentTests.request(PairingAgentTests.hci1, hint: true))
        // The kernel's next message, or nil when 2 s pass without one (its end closes then).
        let received = kernel.end.received
        let command = Task { () -> [UInt8]? in
            var messages = received.makeAsyncIterator()
            return await messages.next()
        }
        let end = kernel.end
        let timeout = Task { try await Task.sleep(for: .seconds(2)); await end.close() }
        let sent = await command.value
        timeout.cancel()
        #expect(sent == ManagementCommand.userConfirmationReply(PairingAgentTests.hci1).packet(for: 0).encoded,
                "the second agent sent no User Confirmation Reply: the events stream ended with the first agent")
        second.stop()
        await channel.close()
        await kernel.end.close()
    }
}
