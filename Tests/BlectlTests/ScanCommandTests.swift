import Foundation
import Testing
import BLECore
import HCI
import Host
@testable import blectl

/// `blectl scan`: its arguments as a user gives them, and a discovery printed as a line and as
/// JSON (the discovery comes from the Host scanner on a scripted controller).
@Suite("blectl scan", .timeLimit(.minutes(1)))
struct ScanCommandTests {
    @Test("usage errors exit 2; here a well-formed scan gets the kernel's answer, exit 1")
    func arguments() throws {
        let service = try BlectlRun(["scan", "--service", "heart"])
        #expect(service.status == 2)
        #expect(service.error.contains("--service takes a UUID"))
        let duration = try BlectlRun(["scan", "--duration", "-1"])
        #expect(duration.status == 2)
        let unknown = try BlectlRun(["scan", "--frobnicate"])
        #expect(unknown.status == 2)
        #expect(unknown.error.contains("unknown option '--frobnicate'"))
        guard !FileManager.default.fileExists(atPath: "/sys/class/bluetooth") else { return }   // the kernel lane's job
        let run = try BlectlRun(["scan", "--duration", "1", "--json"])
        #expect(run.status == 1)
        #expect(run.output.isEmpty)
        #expect(run.error.hasPrefix("blectl scan: reading hci0: this kernel has no Bluetooth"))
    }

    @Test("a discovery as a line and as one JSON object")
    func printing() async throws {
        let transport = ScriptedHCITransport(script: try [
            .expect(h4: "01 0b 20 07 01 6000 3000 00 00"),        // LE Set Scan Parameters (active)
            .inject(h4: "04 0e 04 01 0b 20 00"),
            .expect(h4: "01 0c 20 02 01 01"),                     // LE Set Scan Enable, duplicates filtered
            .inject(h4: "04 0e 04 01 0c 20 00"),
            // LE Advertising Report: ADV_IND, public 00:AA:01:00:00:00, RSSI -55 dBm, Data_Length 27:
            //   Flags 06; Complete Local Name "LBLE"; 16-bit UUIDs 180F; TX Power 4 dBm;
            //   Manufacturer Specific Data 0xFFFF 0102; Service Data 180F 64
            .inject(h4: "04 3e 27 02 01 00 00 000000 01aa00 1b 020106 05094c424c45 03030f18 020a04 05ffffff0102 04160f1864 c9"),
        ])
        let flow = HCICommandFlow(transport: transport, commandTimeout: .seconds(60))   // no real timeout is tested here
        let capabilities = LEControllerCapabilities(leFeatures: [.leEncryption], supportedCommands: HCISupportedCommands(octets: [UInt8](repeating: 0, count: HCISupportedCommands.octetCount)))
        let scanner = LEScanner(flow: flow, capabilities: capabilities)
        var discoveries = try await scanner.start(LEScanParameters(scanType: .active, filterDuplicates: true)).makeAsyncIterator()
        let discovery = try #require(await discoveries.next())
        #expect(ScanCommand.line(discovery)
                == "00:AA:01:00:00:00 (public) -55 dBm \"LBLE\" connectable services 180F manufacturer 0xffff 0102")
        #expect(ScanCommand.json(discovery).description == #"{"address":"00:AA:01:00:00:00","address_type":"public","rssi":-55,"name":"LBLE","service_uuids":["180F"],"manufacturer_data":[{"company_id":65535,"data":"0102"}],"service_data":[{"uuid":"180F","data":"64"}],"tx_power":4,"connectable":true}"#)
        await flow.close()
    }
}
