import Synchronization

/// Joins a host-side ``HCITransport`` to a controller-side one, packet for packet, both ways:
/// what the host sends reaches the controller, what the controller sends reaches the host
/// (Core v5.4, Vol 4, Part A: the HCI transport carries packets unchanged).
///
/// It serves a controller to a host in another process: an H4 TCP connection accepted from a
/// host (Bumble's `tcp-client:`, or another blectl) on one side, a virtual controller's HCI port
/// on the other. ``run(host:controller:)`` returns when either side ends, and closes the other.
///
/// ```swift
/// for await host in listener.connections {
///     Task { await HCITransportBridge.run(host: host, controller: controller.attach()) }
/// }
/// ```
public enum HCITransportBridge {
    /// What passed through a bridge before it ended.
    public struct Counts: Hashable, Sendable {
        /// Packets from the host delivered to the controller.
        public var hostToController = 0
        /// Packets from the controller delivered to the host.
        public var controllerToHost = 0
        /// Packets that could not be delivered because the receiving side had closed.
        public var undelivered = 0

        /// Counts from their values (zero by default).
        public init(hostToController: Int = 0, controllerToHost: Int = 0, undelivered: Int = 0) {
            self.hostToController = hostToController
            self.controllerToHost = controllerToHost
            self.undelivered = undelivered
        }
    }

    /// Carries packets both ways until the host or the controller side ends, then closes both.
    ///
    /// - Parameters:
    ///   - host: the side a host talks on (it sends commands and ACL data).
    ///   - controller: the side a controller talks on (it sends events and ACL data).
    /// - Returns: how many packets went each way.
    ///
    /// Between two ``HCIDirectTransport``s (an H4 stream and a virtual controller's port) each
    /// packet is handed over on the thread that has it, with no task between: the bridge then
    /// costs a packet no thread wake-up of its own.
    @discardableResult
    public static func run(host: any HCITransport, controller: any HCITransport) async -> Counts {
        if let host = host as? any HCIDirectTransport, let controller = controller as? any HCIDirectTransport {
            return await runDirect(host: host, controller: controller)
        }
        async let up = forward(from: host, to: controller)
        async let down = forward(from: controller, to: host)
        // Whichever direction ends first (its source closed) closes both, so the other ends too.
        let first = await up
        await controller.close()
        await host.close()
        let second = await down
        return Counts(hostToController: first.delivered, controllerToHost: second.delivered,
                      undelivered: first.undelivered + second.undelivered)
    }

    private static func forward(from source: any HCITransport, to destination: any HCITransport) async -> (delivered: Int, undelivered: Int) {
        var delivered = 0, undelivered = 0
        for await packet in source.packets {
            do {
                try await destination.send(packet)
                delivered += 1
            } catch {
                undelivered += 1
                break
            }
        }
        await destination.close()
        await source.close()
        return (delivered, undelivered)
    }

    private static func runDirect(host: any HCIDirectTransport, controller: any HCIDirectTransport) async -> Counts {
        let counts = Mutex(Counts())
        let up = HCIPacketHandover(from: host) { packet in
            let sent = controller.sendNow(packet)
            counts.withLock { sent ? ($0.hostToController += 1) : ($0.undelivered += 1) }
        }
        let down = HCIPacketHandover(from: controller) { packet in
            let sent = host.sendNow(packet)
            counts.withLock { sent ? ($0.controllerToHost += 1) : ($0.undelivered += 1) }
        }
        // Whichever side ends first closes both, so the other ends too.
        async let upDone: Void = pass(up, to: controller)
        async let downDone: Void = pass(down, to: host)
        await upDone
        await downDone
        return counts.withLock { $0 }
    }

    /// Runs `handover` until its source ends, then closes both sides.
    private static func pass(_ handover: HCIPacketHandover, to destination: any HCITransport) async {
        await handover.run()
        await destination.close()
        await handover.source.close()
    }
}
