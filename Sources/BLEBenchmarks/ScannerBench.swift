import BLECore
import HCI
import Host

/// The scanner benchmark of `make bench`: LE Extended Advertising Report events, one report each
/// as controllers usually send them, through the whole host path of kernel and host mode's
/// scanning (the command flow, the report decode, the accumulator, the duplicate filter) to the
/// scanner's discoveries, on a scripted controller.
enum ScannerBench {
    /// Extended reports per second from `reports`, each event's H4 frame built beforehand.
    static func reportRate(_ reports: [LEExtendedAdvertisingReport], rounds: Int = 7) async throws -> Bench.Result {
        let events = reports.map { report in
            HCIPacket.event(HCIEventPacket(code: .leMeta, parameters: [LEMetaSubeventCode.extendedAdvertisingReport.rawValue]
                                           + LEMetaEvent.ExtendedAdvertisingReport(reports: [report]).encoded))
        }
        var commands = [UInt8](repeating: 0, count: HCISupportedCommands.octetCount)
        for opcode in LECommandFamily.extendedCommands {
            if let (octet, bit) = HCISupportedCommands.position(of: opcode) { commands[octet] |= 1 << UInt8(bit) }
        }
        let capabilities = LEControllerCapabilities(leFeatures: [.leExtendedAdvertising], supportedCommands: HCISupportedCommands(octets: commands))
        return try await Bench.measure("extended advertising report events through the LE scanner to its discoveries (duplicates filtered)",
                                       unit: "reports/s", operations: events.count, rounds: rounds) {
            let transport = ScriptedHCITransport(script: try [
                .expect(h4: "01 41 20 08 00 00 01 00 6000 3000"), .inject(h4: "04 0e 04 01 41 20 00"),   // parameters: passive
                .expect(h4: "01 42 20 06 01 01 0000 0000"), .inject(h4: "04 0e 04 01 42 20 00"),         // enable, duplicates filtered
            ])
            let scanner = LEScanner(flow: HCICommandFlow(transport: transport, commandTimeout: .seconds(60)), capabilities: capabilities)
            let discoveries = try await scanner.start(LEScanParameters(filterDuplicates: true))
            for event in events { transport.inject(event) }
            transport.finish()                                   // the stream ends after the last report
            var n = 0
            for await _ in discoveries { n &+= 1 }
            return n
        }
    }
}
