import BLECore
import LinuxBluetooth

/// blectl's own pairing agent for one command: a management channel on which a
/// ``JustWorksPairingAgent`` accepts the kernel's Just Works pairing requests, so that
/// `--security medium` works with bluetoothd stopped (docs/linux-setup.md).
struct PairingAgentSession {
    let channel: ManagementChannel
    let agent: JustWorksPairingAgent

    /// Starts answering Just Works requests on hci`hci` (from `peer` only, when given). Returns
    /// nil when the management channel cannot be opened (it needs CAP_NET_ADMIN), after saying
    /// on standard error that pairing then needs another agent.
    static func start(hci: UInt16, peer: BluetoothAddress?,
                      answered: @escaping @Sendable (ManagementAddress, ManagementError?) -> Void) -> PairingAgentSession? {
        do {
            let channel = try ManagementChannel()
            return PairingAgentSession(channel: channel, agent: JustWorksPairingAgent(channel: channel, index: hci, peer: peer, answered: answered))
        } catch {
            printError("blectl: no pairing agent on hci\(hci) (\(error)); pairing completes only if another agent (bluetoothd's) answers")
            return nil
        }
    }

    /// Stops the agent and closes its channel.
    func close() async {
        agent.stop()
        await channel.close()
    }
}
