import BLE
import Foundation
import Testing
import BLECore
import HCI
@testable import blectl

/// `blectl scan`: its arguments as a user gives them, and a discovery printed as a line and as
/// JSON (the discovery comes from the BLE API's central manager scanning a peripheral manager
/// on the virtual radio).
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

    @Test("a discovery as a line and as one JSON object: address and reported type, RSSI, name, services, manufacturer and service data, Tx Power Level")
    func printing() async throws {
        let radio = VirtualRadio(seed: 41, timing: .paced(speed: 10))
        defer { radio.shutDown() }
        let sensor = PeripheralManager(transport: .virtual(radio))
        #expect(await ManagerStartup.settled(sensor.stateUpdates) == .poweredOn)
        // Flags 06; Complete Local Name "LBLE"; 16-bit UUIDs 180F; TX Power 4 dBm;
        // Manufacturer Specific Data 0xFFFF 0102; Service Data 180F 64.
        try await sensor.startAdvertising(try AdvertisementData(advertisingStructures: [
            .flags([.leGeneralDiscoverableMode, .brEDRNotSupported]), .localName(ADLocalName("LBLE")),
            .serviceUUIDs(ADUUIDList(uuids16: [0x180F]), isComplete: true), .txPowerLevel(4),
            .manufacturerSpecificData(ADManufacturerSpecificData(companyIdentifier: 0xFFFF, data: [0x01, 0x02])),
            .serviceData(ADServiceData(uuid: BluetoothUUID(0x180F), data: [0x64])),
        ]))
        let central = CentralManager(transport: .virtual(radio))
        #expect(await ManagerStartup.settled(central.stateUpdates) == .poweredOn)
        var found: Discovery?
        for try await discovery in central.scanForPeripherals(withServices: [BluetoothUUID(0x180F)]) {
            found = discovery
            break
        }
        let discovery = try #require(found)
        let address = discovery.peripheral.address
        let rssi = try #require(discovery.rssi)
        #expect(discovery.reportedAddressType == .random, "a virtual controller without a public address takes a static random one")
        #expect(ScanCommand.line(discovery) == "\(address) (random) \(rssi) dBm \"LBLE\" connectable services 180F manufacturer 0xffff 0102")
        #expect(ScanCommand.json(discovery).description == #"{"address":""# + address.description + #"","address_type":"random","rssi":"#
                + "\(rssi)" + #","name":"LBLE","service_uuids":["180F"],"manufacturer_data":[{"company_id":65535,"data":"0102"}],"service_data":[{"uuid":"180F","data":"64"}],"tx_power":4,"connectable":true}"#)
        await central.close()
        await sensor.close()
    }
}
