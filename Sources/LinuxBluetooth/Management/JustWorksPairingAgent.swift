import BLECore

/// Answers the kernel's Just Works pairing questions on a management channel, so that kernel
/// mode can pair without bluetoothd. Linux asks user space to confirm even Just Works pairing
/// (a User Confirmation Request with Confirm_Hint 1, on both sides of an LE link); with nobody to
/// answer, pairing stalls until SMP's 30 s timeout (Core v5.4, Vol 3, Part H, 3.4) and the L2CAP
/// sockets fail with EACCES.
///
/// Just Works gives an encrypted link without protection from a man in the middle (Part H,
/// 2.3.5.1): what `--security medium` asks for. A request without Confirm_Hint is a numeric
/// comparison whose value a user must check; this agent leaves it unanswered (for an agent that
/// can show it, such as bluetoothd's, else the timeout), as it leaves BR/EDR peers.
///
/// ```swift
/// let channel = try ManagementChannel()
/// let agent = JustWorksPairingAgent(channel: channel, index: 0, peer: address)
/// // ... connect with BT_SECURITY_MEDIUM; the kernel pairs ...
/// agent.stop(); await channel.close()
/// ```
public final class JustWorksPairingAgent: Sendable {
    private let task: Task<Void, Never>

    /// Starts answering. The agent subscribes to `channel`'s ``ManagementChannel/events()`` and
    /// reads them until ``stop()`` or until the channel closes; other subscribers (another agent
    /// after this one stops) are not affected.
    ///
    /// - Parameters:
    ///   - channel: an open management channel; the agent sends its replies through it.
    ///   - index: the controller (hciN) whose requests it answers.
    ///   - peer: when given, only requests about this address are answered.
    ///   - answered: called after each reply with the peer and, when the kernel refused the
    ///     reply, the error (for a log line). Must not block.
    public init(channel: ManagementChannel, index: UInt16, peer: BluetoothAddress? = nil,
                answered: @escaping @Sendable (ManagementAddress, ManagementError?) -> Void = { _, _ in }) {
        let events = channel.events()          // subscribed now, so no request is missed before the task runs
        task = Task {
            for await (controller, event) in events {
                guard controller == index, case .userConfirmationRequest(let request) = event,
                      Self.accepts(request, from: peer) else { continue }
                do throws(ManagementError) {
                    _ = try await channel.send(.userConfirmationReply(request.peer), to: index)
                    answered(request.peer, nil)
                } catch {
                    answered(request.peer, error)
                }
            }
        }
    }

    /// Whether `request` is one this agent accepts: Just Works, from an LE peer, and from
    /// `peer` when one is given.
    public static func accepts(_ request: ManagementUserConfirmationRequest, from peer: BluetoothAddress?) -> Bool {
        request.confirmHint && request.peer.isLE && (peer == nil || peer == request.peer.address)
    }

    /// Stops answering (the channel stays open; its owner closes it).
    public func stop() { task.cancel() }

    deinit { task.cancel() }
}
