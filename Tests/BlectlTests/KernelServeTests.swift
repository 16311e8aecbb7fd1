import Foundation
import Testing
import BLE
import BLECore
import GATT
import HCI
@testable import blectl

/// `blectl serve` in kernel mode: its arguments, and the advertising it builds for a database.
@Suite("blectl serve (kernel mode)")
struct KernelServeTests {
    static let reference = BlectlRun.root.appendingPathComponent("Fixtures/gatt-databases/reference.json").path

    @Test("kernel mode's own options: --security low|medium|high, --manufacturer COMPANY:HEX")
    func arguments() throws {
        let security = try BlectlRun(["serve", "--db", Self.reference, "--security", "authorized"])
        #expect(security.status == 2)
        #expect(security.error.contains("--security takes low, medium or high in kernel mode (or none, encrypted, authenticated)"))
        // The stdio words with the same meaning are kernel mode's too.
        #expect(ServeCommand.kernelSecurity("encrypted") == .encrypted)
        #expect(ServeCommand.kernelSecurity("authenticated") == .authenticated)
        #expect(ServeCommand.kernelSecurity("none") == SecurityLevel.none)
        #expect(ServeCommand.kernelSecurity("authorized") == nil)
        let manufacturer = try BlectlRun(["serve", "--db", Self.reference, "--manufacturer", "apple"])
        #expect(manufacturer.status == 2)
        #expect(manufacturer.error.contains("--manufacturer takes COMPANY:HEX"))
        let stdio = try BlectlRun(["serve", "--db", Self.reference, "--bearer", "stdio", "--manufacturer", "0xFFFF:01"], input: "")
        #expect(stdio.status == 2)
        #expect(ServeOptions.manufacturer("0xFFFF:0102") == ADManufacturerSpecificData(companyIdentifier: 0xFFFF, data: [1, 2]))
        #expect(ServeOptions.manufacturer("76:") == ADManufacturerSpecificData(companyIdentifier: 76, data: []))
        #expect(ServeOptions.manufacturer("70000:01") == nil)
        guard !FileManager.default.fileExists(atPath: "/sys/class/bluetooth") else { return }   // the kernel lane's job
        let run = try BlectlRun(["serve", "--db", Self.reference, "--name", "LinuxBLE"])
        #expect(run.status == 1)
        #expect(run.error.hasPrefix("blectl serve: reading hci0: this kernel has no Bluetooth"))
    }

    @Test("advertising for the reference database: 16-bit and 128-bit services, then name and manufacturer data, each within 31 octets")
    func payloads() throws {
        let database = try GATTDatabase(jsonFile: Self.reference)
        let manufacturer = ADManufacturerSpecificData(companyIdentifier: 0xFFFF, data: [0x01, 0x02])
        let (advertising, response) = ServeAdvertising.payloads(services: database.services, name: "LinuxBLE", manufacturer: manufacturer)
        let advertisingOctets = try AdvertisingData(structures: advertising).encoded, responseOctets = try AdvertisingData(structures: response).encoded
        #expect(advertisingOctets.count <= 31)
        #expect(responseOctets.count <= 31)
        #expect(Hex.encode(advertisingOctets) == "020106" + "0703" + "0d180a181a18"
                + "1107" + Hex.encode(BluetoothUUID("A5F20001-6C1B-4B8E-9E3A-4C696E757842")!.littleEndianOctets))
        #expect(Hex.encode(responseOctets) == "05ffffff0102" + "0909" + Hex.encode(Array("LinuxBLE".utf8)))
    }

    @Test("a long name is shortened to fit, never cutting a UTF-8 sequence")
    func shortenedName() {
        let name = String(repeating: "é", count: 20)                      // 40 octets
        let (_, response) = ServeAdvertising.payloads(services: [], name: name, manufacturer: nil)
        guard case .localName(let local)? = response.first else { Issue.record("no name"); return }
        #expect(!local.isComplete)
        #expect(local.bytes.count == 28)                                  // 29 would cut an "é"
        #expect(local.isValidUTF8)
        #expect(ServeAdvertising.prefix(of: Array("aé".utf8), fitting: 2) == Array("a".utf8))
    }
}
