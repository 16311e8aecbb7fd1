import BLECore
import Foundation
import HCI
import Host
import Synchronization

/// `blectl [--hci N] scan [--duplicates] [--service UUID]... [--passive] [--json] [--duration S]`:
/// LE scanning on the adapter's raw HCI channel, with the legacy or extended commands the
/// controller (and so the kernel) uses; one line or JSON object per discovery.
enum ScanCommand {
    static let usage = """
    usage: blectl [--hci N] scan [--passive] [--duplicates] [--service UUID]... [--json] [--duration S]

    Scans for LE advertisers on adapter hciN (default hci0) through its raw HCI channel (needs
    CAP_NET_RAW) and prints each discovery: advertising data merged with the scan response. A
    device is printed when first heard and again when its data or scan response change.
      --passive      send no scan requests (default: active)
      --duplicates   print every advertisement heard, also unchanged ones (new RSSI)
      --service UUID only devices advertising or soliciting UUID (repeatable)
      --json         one JSON object per discovery: address, address_type, rssi (dBm), name,
                     service_uuids, manufacturer_data, service_data, tx_power (dBm), connectable
      --duration S   stop after S seconds (default: until Ctrl-C)
    """

    static let passive = CommandOption.flag("--passive")
    static let duplicates = CommandOption.flag("--duplicates")
    static let service = CommandOption.value("--service", "UUID", takes: "a UUID (180D, or the 128-bit form)", repeatable: true)
    static let jsonOption = CommandOption.flag("--json")
    static let durationOption = CommandOption.value("--duration", "S", takes: "seconds (0 < S <= 86400)")
    static let syntax = CommandSyntax(name: "scan", options: [passive, duplicates, service, jsonOption, durationOption], help: usage)

    static func run(arguments: [String], context: KernelContext, output: inout OutputBuffer) async -> Int32 {
        let parsed: ParsedArguments
        do { parsed = try syntax.parse(arguments, output: &output) } catch { return error.status }
        if let extra = parsed.operands.first { return syntax.usageError("unknown argument '\(extra)'") }
        var parameters = LEScanParameters(scanType: parsed.contains(passive) ? .passive : .active,
                                          filterDuplicates: !parsed.contains(duplicates))
        for text in parsed.values(of: service) {
            guard let uuid = BluetoothUUID(text) else { return syntax.usageError(service.expectation) }
            parameters.serviceUUIDs.insert(uuid)
        }
        let json = parsed.contains(jsonOption)
        var duration: Duration?
        if let text = parsed.value(of: durationOption) {
            guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else { return syntax.usageError(durationOption.expectation) }
            duration = .milliseconds(Int64(seconds * 1000))
        }

        if context.transport.isHostMode {
            return await hostMode(parameters, duration: duration, json: json, context: context, output: &output)
        }
        let session: HostSession
        do { session = try await HostSession.open(context) } catch {
            printError("blectl scan: \(error)")
            return 1
        }
        let scanner = LEScanner(flow: session.flow, capabilities: session.capabilities)
        return await scan(scanner, parameters, duration: duration, json: json, hci: context.hci, output: &output) { await session.close() }
    }

    /// Starts `scanner`, reports its discoveries, and closes the session (`close`) either way.
    static func scan(_ scanner: LEScanner, _ parameters: LEScanParameters, duration: Duration?, json: Bool, hci: UInt16,
                     output: inout OutputBuffer, close: () async -> Void) async -> Int32 {
        let discoveries: AsyncStream<LEDiscovery>
        do { discoveries = try await scanner.start(parameters) } catch {
            await close()
            printError("blectl scan: \(error)")
            return 1
        }
        let status = await report(discoveries, scanner: scanner, duration: duration, json: json, hci: hci, output: &output)
        await close()
        return status
    }

    /// The scan in host mode, on the stack of `--transport` (with this host's own address type).
    static func hostMode(_ parameters: LEScanParameters, duration: Duration?, json: Bool, context: KernelContext,
                         output: inout OutputBuffer) async -> Int32 {
        let session: HostModeSession
        do { session = try await HostModeSession.open(context) } catch {
            printError("blectl scan: \(error)")
            return 1
        }
        var own = parameters
        own.ownAddressType = session.stack.controller.ownAddressType
        return await scan(session.stack.makeScanner(), own, duration: duration, json: json, hci: context.hci, output: &output) {
            await session.close()
        }
    }

    /// Prints `discoveries` until Ctrl-C (or SIGTERM), `duration`, a closed output, or the end of
    /// the stream on its own (the raw channel closed under the scan: exit 1); then stops the scan.
    ///
    /// - Parameter reportError: where the one-line reasons go (standard error; tests collect them).
    /// - Returns: the exit status: 1 when the scan stopped reporting or could not be stopped.
    static func report(_ discoveries: AsyncStream<LEDiscovery>, scanner: LEScanner, duration: Duration?, json: Bool,
                       hci: UInt16, output: inout OutputBuffer,
                       reportError: (String) -> Void = { printError($0) }) async -> Int32 {
        // Ctrl-C or the duration stops the scan from a task of its own; the scan is over only
        // once that task has the controller's answer to the disable (Core v5.4, Vol 4, Part E,
        // 7.8.11, 7.8.65), which may be an error: the stream of discoveries finishes before it.
        let stopping = Mutex<Task<LEScannerError?, Never>?>(nil)
        let stop: @Sendable () -> Void = {
            stopping.withLock { task in
                guard task == nil else { return }
                task = Task {
                    do throws(LEScannerError) { try await scanner.stop() } catch { return error }
                    return nil
                }
            }
        }
        let interrupt = Interrupt(stop)
        // Only a sleep that ran its course stops the scan: cancelling the timer (below, once the
        // discoveries ended) must not look like a stop that was asked for.
        let timer = duration.map { limit in
            Task {
                do { try await Task.sleep(for: limit) } catch { return }
                stop()
            }
        }
        for await discovery in discoveries {
            output.line(json ? Self.json(discovery).description : Self.line(discovery))
            output.flush()
            if output.isClosed { break }
        }
        timer?.cancel()
        interrupt.stop()
        let asked = stopping.withLock { $0 }
        if !output.isClosed, asked == nil {
            // The discoveries ended on their own: the raw channel closed under the scan.
            reportError("blectl scan: hci\(hci) stopped reporting (the adapter went away, was reset or powered off)")
            return 1
        }
        let failure: LEScannerError?
        if let asked {
            failure = await asked.value
        } else {
            do throws(LEScannerError) { try await scanner.stop(); failure = nil } catch { failure = error }
        }
        if let failure {
            reportError("blectl scan: stopping the scan: \(failure)")
            return 1
        }
        return 0
    }

    /// "00:AA:01:00:00:00 (public) -55 dBm "LinuxBLE" connectable services 180F, A5F2...".
    static func line(_ discovery: LEDiscovery) -> String {
        var parts = ["\(discovery.address) (\(discovery.addressType))"]
        if let rssi = discovery.rssi { parts.append("\(rssi) dBm") }
        if let name = discovery.localName { parts.append(JSONValue.string(name).description) }
        parts.append(discovery.isConnectable ? "connectable" : "not connectable")
        if !discovery.serviceUUIDs.isEmpty { parts.append("services " + discovery.serviceUUIDs.map(\.description).joined(separator: ", ")) }
        for data in discovery.manufacturerSpecificData {
            parts.append("manufacturer \(Hex.hex16(data.companyIdentifier)) \(Hex.encode(data.data))")
        }
        return parts.joined(separator: " ")
    }

    /// The JSON object of one discovery; absent values are null, lists may be empty.
    static func json(_ discovery: LEDiscovery) -> JSONValue {
        .object([
            ("address", .string(discovery.address.description)),
            ("address_type", .string(discovery.addressType.description)),
            ("rssi", discovery.rssi.map { .int(Int($0)) } ?? .null),
            ("name", discovery.localName.map { .string($0) } ?? .null),
            ("service_uuids", .array(discovery.serviceUUIDs.map { .string($0.description) })),
            ("manufacturer_data", .array(discovery.manufacturerSpecificData.map {
                .object([("company_id", .int(Int($0.companyIdentifier))), ("data", .string(Hex.encode($0.data)))])
            })),
            ("service_data", .array(discovery.serviceData.map {
                .object([("uuid", .string($0.uuid.description)), ("data", .string(Hex.encode($0.data)))])
            })),
            ("tx_power", discovery.txPower.map { .int(Int($0)) } ?? .null),
            ("connectable", .bool(discovery.isConnectable)),
        ])
    }
}
