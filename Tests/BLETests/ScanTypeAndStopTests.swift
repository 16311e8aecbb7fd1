@testable import BLE
import BLECore
import HCI
import Host
import Testing
import VirtualRadio

/// Passive scanning, advertisement data made of AD structures (the scan response included), and
/// a refused stop reaching the caller of `stopScan()`.
@Suite("Scanning: passive scans, AD structures, refused stops", .timeLimit(.minutes(1)))
struct ScanTypeAndStopTests {
    /// A peripheral manager on `radio` advertising Flags and the Heart Rate service, with its
    /// name in the scan response.
    static func sensor(on radio: VirtualRadio) async throws -> PeripheralManager {
        let sensor = PeripheralManager(transport: .virtual(radio))
        for await state in sensor.stateUpdates where state != .unknown { #expect(state == .poweredOn); break }
        try await sensor.startAdvertising(try AdvertisementData(
            advertisingStructures: [.flags([.leGeneralDiscoverableMode, .brEDRNotSupported]),
                                    .serviceUUIDs(ADUUIDList(uuids16: [0x180D]), isComplete: false)],
            scanResponseStructures: [.localName(ADLocalName("Scanned"))]))
        return sensor
    }

    @Test("AD structures are advertised exactly as given, the scan response apart, and an active scan hears both payloads")
    func structuresAsGiven() async throws {
        let radio = VirtualRadio(seed: 51, timing: .paced(speed: 10))
        defer { radio.shutDown() }
        let sensor = try await Self.sensor(on: radio)
        let central = try await BLETestbed.poweredOn(CentralManager(transport: .virtual(radio)))
        var heard: Discovery?
        for try await discovery in central.scanForPeripherals(withServices: [BluetoothUUID(0x180D)]) where discovery.advertisementData.localName != nil {
            heard = discovery
            break
        }
        let data = try #require(heard).advertisementData
        #expect(data.advertisingData?.bytes == [0x02, 0x01, 0x06, 0x03, 0x02, 0x0D, 0x18], "Flags, an incomplete 16-bit list: nothing added")
        #expect(data.scanResponseData?.bytes == [0x08, 0x09] + Array("Scanned".utf8))
        #expect(data.localName == "Scanned")
        #expect(data.serviceUUIDs == [BluetoothUUID(0x180D)])
        #expect(try #require(heard).reportedAddressType == .random)
        await central.close()
        await sensor.close()
    }

    @Test("a passive scan sends no scan request: the advertising data is heard, the scan response never")
    func passive() async throws {
        let radio = VirtualRadio(seed: 52, timing: .paced(speed: 10))
        defer { radio.shutDown() }
        let sensor = try await Self.sensor(on: radio)
        let central = try await BLETestbed.poweredOn(CentralManager(transport: .virtual(radio)))
        var seen = 0
        for try await discovery in central.scanForPeripherals(withServices: nil, options: ScanOptions(allowDuplicates: true, scanType: .passive)) {
            #expect(discovery.advertisementData.scanResponseData == nil)
            #expect(discovery.advertisementData.localName == nil)
            #expect(discovery.advertisementData.advertisingData != nil)
            seen += 1
            if seen == 20 { break }                     // a virtual second of advertising, and more
        }
        await central.close()
        await sensor.close()
    }

    @Test("typed fields set on data made of structures make it typed again: the structures are built from them")
    func typedAgain() throws {
        var data = try AdvertisementData(advertisingStructures: [.localName(ADLocalName("A"))], scanResponseStructures: [.txPowerLevel(2)])
        #expect(data.isMadeOfStructures)
        #expect(data.localName == "A")
        #expect(data.txPowerLevel == 2)
        #expect(try data.structures() == [.localName(ADLocalName("A"))])
        data.localName = "B"
        #expect(!data.isMadeOfStructures)
        #expect(data.scanResponseStructures.isEmpty)
        #expect(try data.structures() == [.flags([.leGeneralDiscoverableMode, .brEDRNotSupported]), .localName(ADLocalName("B")), .txPowerLevel(2)])
    }

    @Test("a peripheral manager's state file keeps data made of structures as its payloads")
    func restorationKeepsStructures() throws {
        let data = try AdvertisementData(advertisingStructures: [.flags([.leGeneralDiscoverableMode]), .localName(ADLocalName("Kept", isComplete: false))],
                                         scanResponseStructures: [.manufacturerSpecificData(ADManufacturerSpecificData(companyIdentifier: 0xFFFF, data: [7]))],
                                         isConnectable: false)
        let entry = AdvertisementEntry(data)
        let read = try AdvertisementEntry(json: entry.json, at: JSONPath([]))
        #expect(read.data == data)
        #expect(read.data.scanResponseStructures == data.scanResponseStructures)
    }

    @Test("stopScan() throws the controller's refusal to stop scanning, after the scan's stream finished")
    func refusedStop() async throws {
        let testbed = try await BLETestbed.make(seed: 53)
        await testbed.central.core.wrapBackend { RefusingStopBackend(wrapping: $0) }
        var scan = testbed.central.scanForPeripherals(withServices: nil, options: ScanOptions(allowDuplicates: true)).makeAsyncIterator()
        _ = try await scan.next()
        await #expect(throws: BLEError.controllerError("LE Set Scan Enable failed: Command Disallowed (0x0C)")) {
            try await testbed.central.stopScan()
        }
        while try await scan.next() != nil {}
        #expect(!testbed.central.isScanning)
        try await testbed.central.stopScan()            // no scan: nothing to refuse
        await testbed.shutDown()
    }
}

extension CentralCore {
    /// Puts `wrap`'s backend around the running one (tests).
    func wrapBackend(_ wrap: (any CentralBackend) -> any CentralBackend) {
        if let backend { self.backend = wrap(backend) }
    }
}

/// A backend whose controller refuses to stop scanning: it stops the real scan, then reports the
/// refusal a controller answers HCI_LE_Set_Scan_Enable with when it cannot (Command Disallowed).
final class RefusingStopBackend: CentralBackend {
    private let inner: any CentralBackend
    init(wrapping inner: any CentralBackend) { self.inner = inner }

    var clock: any Clock<Duration> { inner.clock }
    func startScan(_ type: ScanType, filterDuplicates: Bool) async throws(BLEError) -> AsyncStream<LEDiscovery> {
        try await inner.startScan(type, filterDuplicates: filterDuplicates)
    }
    func stopScan() async throws(BLEError) {
        try await inner.stopScan()
        throw .controllerError("LE Set Scan Enable failed: Command Disallowed (0x0C)")
    }
    func connect(to address: BluetoothAddress, addressType: LEAddressType, timeout: Duration,
                 security: SecurityLevel) async throws(BLEError) -> any BackendLink {
        try await inner.connect(to: address, addressType: addressType, timeout: timeout, security: security)
    }
    func connect(toAnyOf peers: [(address: BluetoothAddress, addressType: LEAddressType)], timeout: Duration) async throws(BLEError) -> any BackendLink {
        try await inner.connect(toAnyOf: peers, timeout: timeout)
    }
    func acceptListCapacity() async -> Int { await inner.acceptListCapacity() }
    var hasEnded: Bool { get async { await inner.hasEnded } }
    func ended() async -> BackendEnd { await inner.ended() }
    func close() async { await inner.close() }
}
