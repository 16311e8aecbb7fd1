import HCI
import Host

/// A host's HCI link to a ``VirtualController``: commands and ACL data in, events and ACL data
/// out (Core v5.4, Vol 4, Part E, 5.4), as any ``HCITransport``.
///
/// A packet sent is handled at once, at the radio's current virtual time: a command's Command
/// Complete or Command Status is in ``packets`` before ``send(_:)`` returns (after the
/// controller's HCI latency fault, if any).
public final class VirtualHCIPort: HCIDirectTransport {
    let lifetime: RadioLifetime
    let controller: Int
    let attachment: UInt64

    /// The packets from the controller, in order. Finishes at ``close()``, at a later
    /// ``VirtualController/attach()``, or when the radio stops.
    public let packets: AsyncStream<HCIPacket>

    init(lifetime: RadioLifetime, controller: Int, attachment: UInt64, packets: AsyncStream<HCIPacket>) {
        self.lifetime = lifetime
        self.controller = controller
        self.attachment = attachment
        self.packets = packets
    }

    /// Hands `packet` to the controller.
    ///
    /// - Throws: ``HCITransportError/closed`` after ``close()``, after a later attach, or when
    ///   the radio has stopped.
    public nonisolated(nonsending) func send(_ packet: HCIPacket) async throws(HCITransportError) {
        if !sendNow(packet) { throw .closed }
    }

    /// Hands `packet` to the controller now (as ``send(_:)``, which never waits either).
    ///
    /// - Returns: false after ``close()``, after a later attach, or when the radio has stopped.
    public func sendNow(_ packet: HCIPacket) -> Bool {
        lifetime.core.withWorld { world in
            let model = world.controllers[controller]
            guard !world.stopped, model.attachment == attachment, model.port != nil else { return false }
            world.hostPacket(packet, from: model)
            return true
        }
    }

    /// Hands the controller's packets to `receiver` from now on, under the radio's lock (so in
    /// the order they are made), instead of into ``packets``.
    ///
    /// - Returns: how many packets ``packets`` was given since this attachment.
    public func redirectPackets(to receiver: @escaping @Sendable (HCIPacket) -> Void) -> Int {
        lifetime.core.withWorld { world in
            let model = world.controllers[controller]
            guard model.attachment == attachment else { return 0 }
            model.redirect = receiver
            return model.delivered
        }
    }

    /// Detaches the host: ``packets`` finishes and later sends throw. The controller keeps its
    /// state (links included) until a new host resets it.
    public func close() async {
        lifetime.core.withWorld { world in
            let model = world.controllers[controller]
            guard model.attachment == attachment else { return }
            model.port?.finish()
            model.port = nil
        }
    }
}
