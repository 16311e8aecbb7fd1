import BLE
import BLECore
import Foundation
import HCI
import Synchronization

/// `blectl [--hci N | --transport WORD] scan [--duplicates] [--service UUID]... [--passive] [--json] [--duration S]`:
/// LE scanning through a ``CentralManager`` of the BLE API (in kernel mode on the adapter's raw
/// HCI channel, in host mode on the controller it owns); one line or JSON object per discovery.
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
        var services: [BluetoothUUID] = []
        for text in parsed.values(of: service) {
            guard let uuid = BluetoothUUID(text) else { return syntax.usageError(service.expectation) }
            if !services.contains(uuid) { services.append(uuid) }
        }
        // --service admits a device that lists the service or solicits it (Core Specification
        // Supplement, Part A, 1.1 and 1.10).
        let options = ScanOptions(allowDuplicates: parsed.contains(duplicates), solicitedServiceUUIDs: services,
                                  scanType: parsed.contains(passive) ? .passive : .active)
        let json = parsed.contains(jsonOption)
        var duration: Duration?
        if let text = parsed.value(of: durationOption) {
            guard let seconds = Double(text), seconds > 0, seconds <= 86_400 else { return syntax.usageError(durationOption.expectation) }
            duration = .milliseconds(Int64(seconds * 1000))
        }

        if case .kernel = context.transport {
            do { _ = try await context.adapter() } catch {
                printError("blectl scan: \(error)")
                return 1
            }
        }
        let central = CentralManager(transport: context.transport, options: ManagerStartup.options(context))
        let status: Int32
        if await ManagerStartup.settled(central.stateUpdates) == .poweredOn {
            let discoveries = central.scanForPeripherals(withServices: services.isEmpty ? nil : services, options: options)
            let heard = services.isEmpty ? "no advertising heard" : "no advertising heard that lists or solicits the services asked for"
            status = await report(discoveries, stop: { () async throws(BLEError) in try await central.stopScan() }, duration: duration,
                                  json: json, hci: context.hci, output: &output, nothingHeard: "blectl scan: \(heard)")
        } else {
            printError("blectl scan: \(ManagerStartup.sentence(await failure(of: central)))")
            status = 1
        }
        await central.close()
        return status
    }

    /// Why `central`, settled in a state other than ``ManagerState/poweredOn``, cannot scan: the
    /// error its calls throw in that state (a scan's stream throws it at once).
    static func failure(of central: CentralManager) async -> BLEError {
        do {
            for try await _ in central.scanForPeripherals(withServices: nil) { break }
        } catch let error as BLEError {
            return error
        } catch {}
        return .poweredOff
    }

    /// Prints `discoveries` until Ctrl-C (or SIGTERM), `duration`, a closed output, or the end of
    /// the stream on its own (the controller went away under the scan: exit 1); then stops the
    /// scan with `stop`.
    ///
    /// - Parameters:
    ///   - nothingHeard: the line for standard error when the scan stopped as asked with no
    ///     discovery printed (so that an empty output is not mistaken for a hang or a crash);
    ///     nil for none.
    ///   - reportError: where the one-line reasons go (standard error; tests collect them).
    ///   - reportNote: where `nothingHeard` goes (standard error; tests collect it).
    /// - Returns: the exit status: 1 when the scan could not start, stopped reporting, or could
    ///   not be stopped; 0 otherwise, a scan that heard nothing included.
    static func report(_ discoveries: AsyncThrowingStream<Discovery, any Error>,
                       stop: @escaping @Sendable () async throws(BLEError) -> Void, duration: Duration?, json: Bool,
                       hci: UInt16, output: inout OutputBuffer, nothingHeard: String? = nil,
                       reportError: (String) -> Void = { printError($0) },
                       reportNote: (String) -> Void = { printError($0) }) async -> Int32 {
        // Ctrl-C or the duration stops the scan from a task of its own; the scan is over only
        // once that task has the controller's answer to the disable (Core v5.4, Vol 4, Part E,
        // 7.8.11, 7.8.65), which may be an error: the stream of discoveries finishes before it.
        let stopping = Mutex<Task<BLEError?, Never>?>(nil)
        let stopNow: @Sendable () -> Void = {
            stopping.withLock { task in
                guard task == nil else { return }
                task = Task {
                    do throws(BLEError) { try await stop() } catch { return error }
                    return nil
                }
            }
        }
        let interrupt = Interrupt(stopNow)
        // Only a sleep that ran its course stops the scan: cancelling the timer (below, once the
        // discoveries ended) must not look like a stop that was asked for.
        let timer = duration.map { limit in
            Task {
                do { try await Task.sleep(for: limit) } catch { return }
                stopNow()
            }
        }
        var ended: (any Error)?
        var printed = 0
        do {
            for try await discovery in discoveries {
                printed += 1
                output.line(json ? Self.json(discovery).description : Self.line(discovery))
                output.flush()
                if output.isClosed { break }
            }
        } catch {
            ended = error
        }
        timer?.cancel()
        interrupt.stop()
        let asked = stopping.withLock { $0 }
        if !output.isClosed, asked == nil {
            // The discoveries ended on their own: the controller refused to scan, or the mode
            // ended under the scan (the raw channel closed, the controller went away).
            if case .controllerError(let text)? = ended as? BLEError {
                reportError("blectl scan: \(text)")
            } else {
                reportError("blectl scan: hci\(hci) stopped reporting (the adapter went away, was reset or powered off)")
            }
            return 1
        }
        let failure: BLEError?
        if let asked {
            failure = await asked.value
        } else {
            do throws(BLEError) { try await stop(); failure = nil } catch { failure = error }
        }
        if let failure {
            reportError("blectl scan: stopping the scan: \(ManagerStartup.sentence(failure))")
            return 1
        }
        if printed == 0, let nothingHeard { reportNote(nothingHeard) }
        return 0
    }

    /// The payloads a discovery carries as heard, advertising data first.
    static func payloads(_ discovery: Discovery) -> [AdvertisingData] {
        [discovery.advertisementData.advertisingData, discovery.advertisementData.scanResponseData].compactMap { $0 }
    }

    /// "00:AA:01:00:00:00 (public) -55 dBm "LinuxBLE" connectable services 180F, A5F2...".
    static func line(_ discovery: Discovery) -> String {
        let data = discovery.advertisementData
        let payloads = Self.payloads(discovery)
        var parts = ["\(discovery.peripheral.address) (\(discovery.reportedAddressType))"]
        if let rssi = discovery.rssi { parts.append("\(rssi) dBm") }
        if let name = data.localName { parts.append(JSONValue.string(name).description) }
        parts.append(data.isConnectable ? "connectable" : "not connectable")
        let uuids = payloads.flatMap(\.serviceUUIDs)
        if !uuids.isEmpty { parts.append("services " + uuids.map(\.description).joined(separator: ", ")) }
        for manufacturer in payloads.flatMap(\.manufacturerSpecificData) {
            parts.append("manufacturer \(Hex.hex16(manufacturer.companyIdentifier)) \(Hex.encode(manufacturer.data))")
        }
        return parts.joined(separator: " ")
    }

    /// The JSON object of one discovery; absent values are null, lists may be empty. tx_power is
    /// the Tx Power Level AD structure when sent, else the TX_Power of the last extended report.
    static func json(_ discovery: Discovery) -> JSONValue {
        let data = discovery.advertisementData
        let payloads = Self.payloads(discovery)
        return .object([
            ("address", .string(discovery.peripheral.address.description)),
            ("address_type", .string(discovery.reportedAddressType.description)),
            ("rssi", discovery.rssi.map { .int($0) } ?? .null),
            ("name", data.localName.map { .string($0) } ?? .null),
            ("service_uuids", .array(payloads.flatMap(\.serviceUUIDs).map { .string($0.description) })),
            ("manufacturer_data", .array(payloads.flatMap(\.manufacturerSpecificData).map {
                .object([("company_id", .int(Int($0.companyIdentifier))), ("data", .string(Hex.encode($0.data)))])
            })),
            ("service_data", .array(payloads.flatMap(\.serviceData).map {
                .object([("uuid", .string($0.uuid.description)), ("data", .string(Hex.encode($0.data)))])
            })),
            ("tx_power", (data.txPowerLevel ?? discovery.txPower).map { .int($0) } ?? .null),
            ("connectable", .bool(data.isConnectable)),
        ])
    }
}
