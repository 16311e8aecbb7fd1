import BLE
import BLECore
import Foundation
import GATT
import HCI

/// `blectl [--hci N | --transport WORD] serve --db FILE.json [--name NAME] [--security low|medium|high]
/// [--manufacturer COMPANY:HEX]`: the database served through a ``PeripheralManager`` of the BLE
/// API, with its handles as declared, advertising (connectable, again after each connection)
/// until Ctrl-C; many centrals at once, each with its own CCCD state. In kernel mode the kernel's
/// L2CAP ATT channel carries the links and serve confirms Just Works pairing itself; in host
/// mode the stack on `--transport` does (without pairing). Each connection, disconnection,
/// CCCD and value write is printed as a line, and written values are notified or indicated to
/// the subscribers (``ServeNotifier``).
enum ManagedServe {
    static func run(_ options: ServeOptions, context: KernelContext, output: inout OutputBuffer) async -> Int32 {
        let hostMode = context.transport.isHostMode
        guard !hostMode || options.security == .none else {
            printError("blectl serve: --security \(ServeOptions.word(options.security)) needs pairing, which host mode does not do yet; use kernel mode")
            return 1
        }
        let database: GATTDatabase
        do { database = try GATTDatabase(jsonFile: options.database) } catch {
            printError(ServeCommand.databaseFailure(options.database, error))
            return 1
        }
        if !hostMode {
            do { _ = try await context.adapter() } catch {
                printError("blectl serve: \(error)")
                return 1
            }
        }
        var managerOptions = ManagerStartup.options(context, deviceName: options.name)
        managerOptions.requiredLinkSecurity = options.security
        // Kernel mode: accept Just Works pairing from any central (a characteristic that needs
        // encryption can then be read once a central pairs), before any central can connect.
        managerOptions.acceptsJustWorksPairing = !hostMode
        let manager = PeripheralManager(transport: context.transport, options: managerOptions)
        let lines = ServeEvents()
        let notifier = ServeNotifier(manager: manager, events: lines)
        let following = Task { await follow(manager.events, notifier: notifier, lines: lines, hostMode: hostMode, hci: context.hci) }
        let status = await serve(database, options, on: manager, notifier: notifier, context: context, output: &output)
        await manager.close()
        await following.value
        await notifier.finish()
        if status == 0 { output.line("stopped") }
        return status
    }

    /// Publishes and advertises, says so, and serves until Ctrl-C (or SIGTERM) or the controller
    /// going away; then ends advertising and the links.
    ///
    /// - Returns: 0 when it served; 1 after printing why it could not.
    private static func serve(_ database: GATTDatabase, _ options: ServeOptions, on manager: PeripheralManager, notifier: ServeNotifier,
                              context: KernelContext, output: inout OutputBuffer) async -> Int32 {
        let served: [MutableService]
        do {
            served = try await manager.publish(database)
        } catch {
            if manager.state == .poweredOn {
                printError("blectl serve: \(options.database): \(ManagerStartup.sentence(error))")
            } else {
                printError("blectl serve: \(ManagerStartup.sentence(error))")
            }
            return 1
        }
        await notifier.serve(served)
        let where_ = context.transport.isHostMode ? "\(context.transport)" : "hci\(context.hci)"
        let (advertising, response) = ServeAdvertising.payloads(services: database.services, name: options.name,
                                                                manufacturer: options.manufacturer)
        do {
            try await manager.startAdvertising(try AdvertisementData(advertisingStructures: advertising, scanResponseStructures: response))
        } catch {
            printError("blectl serve: advertising on \(where_): \(ManagerStartup.sentence(error))")
            return 1
        }
        guard let own = await manager.localAddress else {
            printError("blectl serve: \(where_) went away")
            return 1
        }
        let identity = context.transport.isHostMode ? "\(own.address), \(own.type)" : "\(own.address)"
        output.line("serving \(options.database) on \(where_) (\(identity)) as \(JSONValue.string(options.name)); Ctrl-C ends")
        output.flush()
        // Ctrl-C, or the controller going away (the manager leaves .poweredOn for good: not
        // .resetting, from which it comes back serving), ends serving.
        let (ending, end) = AsyncStream.makeStream(of: Void.self)
        let interrupt = Interrupt { end.yield() }
        let watching = Task {
            for await state in manager.stateUpdates where state != .poweredOn && state != .resetting { break }
            end.yield()
        }
        for await _ in ending { break }
        interrupt.stop()
        watching.cancel()
        await manager.stopAdvertising()
        return 0
    }

    /// Prints the manager's events as serve's lines until its stream ends (the manager closed),
    /// and hands CCCD and value writes to `notifier`.
    static func follow(_ events: AsyncStream<PeripheralManagerEvent>, notifier: ServeNotifier, lines: ServeEvents,
                               hostMode: Bool, hci: UInt16) async {
        for await event in events {
            switch event {
            case .connected(let central):
                lines.say("connected \(central.address) (\(central.addressType))")
            case .disconnected(let central, let reason):
                lines.say("disconnected \(central.address)" + (hostMode ? ": \(reason)" : ""))
            case .clientConfigurationChanged(let central, let characteristic, let kinds):
                await notifier.configured(central, characteristic, kinds)
            case .valueWritten(let central, let handle, let value):
                await notifier.written(central, handle, [UInt8](value))
            case .pairingAnswered(let address, let error):
                lines.say(error.map { "could not accept pairing with \(address): \(ManagerStartup.sentence($0))" }
                          ?? "accepted Just Works pairing with \(address)")
            case .pairingAgentUnavailable(let why):
                printError("blectl: no pairing agent on hci\(hci) (\(why)); pairing completes only if another agent (bluetoothd's) answers")
            case .advertisingRestartFailed(let error):
                lines.say("advertising again failed: \(ManagerStartup.sentence(error))")
            case .advertisingStopped(let error):
                lines.say("advertising stopped: after the controller's reset it failed to start again: \(ManagerStartup.sentence(error))")
            case .willRestoreState, .restorationProblem:
                continue
            }
        }
    }
}
