import BLECore
import GATT
import HCI
import Host

/// `blectl --transport WORD serve --db FILE.json [--name NAME] [--manufacturer COMPANY:HEX]`:
/// the GATT server in host mode: the stack on `--transport` advertises the database's services
/// (connectable, again after each connection, for more centrals) and serves every central that
/// connects over L2CAP's ATT channel, until Ctrl-C. Written values are notified or indicated to
/// the subscribers, as in kernel mode.
enum HostServe {
    static func run(_ options: KernelServe.Options, context: KernelContext, output: inout OutputBuffer) async -> Int32 {
        guard options.security == .low else {
            printError("blectl serve: --security \(options.security) needs pairing, which host mode does not do yet; use kernel mode")
            return 1
        }
        guard let (database, server) = KernelServe.loadServer(options) else { return 1 }
        let session: HostModeSession
        do { session = try await HostModeSession.open(context) } catch {
            printError("blectl serve: \(error)")
            return 1
        }
        let stack = session.stack
        let (advertisingData, scanResponse) = ServeAdvertising.payloads(services: database.services, name: options.name,
                                                                        manufacturer: options.manufacturer)
        let advertiser = stack.makeAdvertiser()
        do {
            try await advertiser.start(stack.advertisingParameters(advertisingData: advertisingData, scanResponse: scanResponse))
        } catch {
            await session.close()
            printError("blectl serve: advertising on \(context.transport): \(error)")
            return 1
        }
        output.line("serving \(options.database) on \(context.transport) (\(stack.controller.address), "
                    + "\(stack.addressType == .public ? "public" : "random")) as \(JSONValue.string(options.name)); Ctrl-C ends")
        output.flush()

        let events = ServeEvents()
        let connections = stack.connections
        let interrupt = Interrupt { Task { await connections.close() } }
        let notifier = ServeNotifier(server: server, database: await server.database, events: events)
        let following = Task { await notifier.run() }
        for await link in stack.connections.incomingConnections {
            let peer = "\(link.peerAddress)"
            events.say("connected \(peer) (\(link.peerAddressType == .public ? "public" : "random"))")
            let attached = await server.connect(link.att)
            await notifier.add(attached, name: peer)
            Task {
                let reason = await link.disconnected()
                await attached.engine.close()
                await notifier.remove(attached)
                events.say("disconnected \(peer): \(reason)")
            }
        }
        following.cancel()
        interrupt.stop()
        try? await advertiser.stop()
        await session.close()
        output.line("stopped")
        return 0
    }
}
