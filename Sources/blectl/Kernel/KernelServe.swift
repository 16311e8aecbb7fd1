import BLECore
import GATT
import HCI
import Host
import LinuxBluetooth

/// `blectl [--hci N] serve --db FILE.json [--name NAME] [--security low|medium|high]
/// [--manufacturer COMPANY:HEX]`: the GATT server on the kernel's L2CAP ATT channel, advertising
/// through the raw HCI channel, until interrupted. Many centrals may be connected at once, each
/// with its own CCCD state.
enum KernelServe {
    struct Options {
        var database: String
        var name: String
        var security: L2CAPATTChannel.Security = .low
        var manufacturer: ADManufacturerSpecificData?
    }

    /// Parses "COMPANY:HEX" (COMPANY decimal or 0x-hex, e.g. 0xFFFF:0102).
    static func manufacturer(_ text: String) -> ADManufacturerSpecificData? {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, let data = Hex.decode(parts[1]) else { return nil }
        let company = parts[0].lowercased().hasPrefix("0x") ? UInt16(parts[0].dropFirst(2), radix: 16) : UInt16(parts[0])
        return company.map { ADManufacturerSpecificData(companyIdentifier: $0, data: data) }
    }

    /// The database of `--db` and a server on it named `--name`; nil after printing why not.
    static func loadServer(_ options: Options) -> (GATTDatabase, GATTServer)? {
        do {
            let database = try GATTDatabase(jsonFile: options.database)
            return (database, try GATTServer(database: database, configuration: GATTServerConfiguration(deviceName: options.name)))
        } catch {
            printError(ServeCommand.databaseFailure(options.database, error))
            return nil
        }
    }

    static func run(_ options: Options, context: KernelContext, output: inout OutputBuffer) async -> Int32 {
        guard let (database, server) = loadServer(options) else { return 1 }
        let session: HostSession
        do { session = try await HostSession.open(context) } catch {
            printError("blectl serve: \(error)")
            return 1
        }
        // Accept Just Works pairing from any central (a characteristic that needs encryption can
        // then be read once a central pairs), before any central can connect.
        let events = ServeEvents()
        let agent = PairingAgentSession.start(hci: context.hci, peer: nil) { peer, error in
            events.say(error.map { "could not accept pairing with \(peer.address): \($0)" } ?? "accepted Just Works pairing with \(peer.address)")
        }
        // Listen before advertising: the kernel hands over only links that come up afterwards.
        let listener: L2CAPATTListener
        let adapter: HCIAdapterInfo
        do {
            adapter = try HCIAdapters.adapter(context.hci)
            listener = try L2CAPATTListener(adapter: adapter.address, security: options.security)
        } catch {
            await session.close()
            await agent?.close()
            printError("blectl serve: \(error)")
            return 1
        }
        let (advertisingData, scanResponse) = ServeAdvertising.payloads(services: database.services, name: options.name,
                                                                        manufacturer: options.manufacturer)
        let advertiser = LEAdvertiser(flow: session.flow, capabilities: session.capabilities)
        do {
            try await advertiser.start(LEAdvertisingParameters(advertisingData: advertisingData, scanResponse: scanResponse,
                                                               isConnectable: true, readvertiseAfterConnection: true))
        } catch {
            listener.close()
            await session.close()
            await agent?.close()
            printError("blectl serve: advertising on hci\(context.hci): \(error)")
            return 1
        }
        output.line("serving \(options.database) on hci\(context.hci) (\(adapter.address)) as \(JSONValue.string(options.name)); Ctrl-C ends")
        output.flush()

        let interrupt = Interrupt { listener.close() }
        let notifier = ServeNotifier(server: server, database: await server.database, events: events)
        let following = Task { await notifier.run() }
        let readvertising = ReadvertisingReport(advertiser: advertiser, events: events)
        for await connection in listener.connections {
            let peer = "\(connection.peer)"
            events.say("connected \(peer) (\(connection.peerIsRandom ? "random" : "public"))")
            await readvertising.sayNewErrors()
            let attached = await server.connect(connection.bearer)
            await notifier.add(attached, name: peer)
            Task {
                await attached.engine.waitUntilClosed()
                await notifier.remove(attached)
                events.say("disconnected \(peer)")
                await readvertising.sayNewErrors()
            }
        }
        following.cancel()
        interrupt.stop()
        try? await advertiser.stop()
        for connection in await server.connections { await connection.engine.close() }
        await session.close()
        await agent?.close()
        output.line("stopped")
        return 0
    }
}
