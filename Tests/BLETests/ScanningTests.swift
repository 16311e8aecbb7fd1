@testable import BLE
import BLECore
import HCI
import Testing
import VirtualRadio

/// Scanning: the service filter, duplicates, and the scan's end. Each test compares what the
/// central delivered before a sentinel sensor, started one virtual second after the first
/// discovery, appears: reports reach the central in order, so everything heard in that second
/// is delivered (or filtered) before the sentinel.
@Suite("Scanning", .timeLimit(.minutes(1)))
struct ScanningTests {
    static func sentinel(on radio: VirtualRadio) async throws -> TestSensor {
        try await TestSensor.start(on: radio, database: try TestDatabase().database, advertisingData: [
            .localName(ADLocalName(bytes: Array("Sentinel".utf8))), .serviceUUIDs(ADUUIDList(uuids16: [0x180D]), isComplete: true),
        ])
    }

    /// The discoveries of `scan` up to and including the sentinel's, which is started one
    /// virtual second after the first discovery.
    static func untilSentinel(_ scan: AsyncThrowingStream<Discovery, any Error>, on radio: VirtualRadio) async throws -> [Discovery] {
        var seen: [Discovery] = []
        var sentinel: TestSensor?
        for try await discovery in scan {
            seen.append(discovery)
            if let sentinel, discovery.peripheral.identifier == sentinel.identifier { return seen }
            if sentinel == nil {
                try await radio.clock.sleep(for: .seconds(1))
                sentinel = try await Self.sentinel(on: radio)
            }
        }
        return seen
    }

    @Test("a scan with a service filter delivers only peripherals that list the service, with their advertisement data")
    func serviceFilter() async throws {
        let testbed = try await BLETestbed.make(seed: 31)
        let other = try await TestSensor.start(on: testbed.radio, database: testbed.gatt.database, advertisingData: [
            .localName(ADLocalName(bytes: Array("Battery".utf8))), .serviceUUIDs(ADUUIDList(uuids16: [0x180F]), isComplete: true),
        ])
        let seen = try await Self.untilSentinel(
            testbed.central.scanForPeripherals(withServices: [BluetoothUUID("180D")!], options: ScanOptions(allowDuplicates: true)),
            on: testbed.radio)
        #expect(seen.count > 3, "the sensor advertises every 30 ms")
        #expect(!seen.contains { $0.peripheral.identifier == other.identifier })
        for discovery in seen {
            #expect(discovery.advertisementData.serviceUUIDs.contains(BluetoothUUID(0x180D)))
            #expect(discovery.advertisementData.isConnectable)
            #expect((-127...20).contains(discovery.rssi ?? 0))
        }
        let first = try #require(seen.first)
        #expect(first.peripheral.identifier == testbed.sensor.identifier)
        #expect(first.advertisementData.localName == "Sensor")
        #expect(first.peripheral.name == "Sensor")
        await testbed.shutDown()
    }

    @Test("a service solicited with solicitedServiceUUIDs is delivered although the peripheral lists other services")
    func solicitation() async throws {
        let testbed = try await BLETestbed.make(seed: 32)
        let soliciting = try await TestSensor.start(on: testbed.radio, database: testbed.gatt.database, advertisingData: [
            .serviceSolicitation(ADUUIDList(uuids16: [0x1812])),
        ])
        let scan = testbed.central.scanForPeripherals(withServices: [BluetoothUUID(0x180F)],
                                                      options: ScanOptions(solicitedServiceUUIDs: [BluetoothUUID(0x1812)]))
        for try await discovery in scan {
            #expect(discovery.peripheral.identifier == soliciting.identifier)
            #expect(discovery.advertisementData.solicitedServiceUUIDs == [BluetoothUUID(0x1812)])
            break
        }
        await testbed.shutDown()
    }

    @Test("solicitedServiceUUIDs without a service filter only adds: a peripheral that solicits nothing is delivered too")
    func solicitationAloneFiltersNothing() async throws {
        let testbed = try await BLETestbed.make(seed: 164)
        let scan = testbed.central.scanForPeripherals(withServices: nil,
                                                      options: ScanOptions(solicitedServiceUUIDs: [BluetoothUUID(0x1812)]))
        for try await discovery in scan {
            #expect(discovery.peripheral.identifier == testbed.sensor.identifier)
            #expect(discovery.advertisementData.solicitedServiceUUIDs.isEmpty)
            break
        }
        await testbed.shutDown()
    }

    @Test("without allowDuplicates a peripheral that keeps advertising the same data is delivered once")
    func noDuplicates() async throws {
        let testbed = try await BLETestbed.make(seed: 33)
        let seen = try await Self.untilSentinel(testbed.central.scanForPeripherals(withServices: nil), on: testbed.radio)
        #expect(seen.filter { $0.peripheral.identifier == testbed.sensor.identifier }.count == 1)
        await testbed.shutDown()
    }

    @Test("with allowDuplicates every advertising report is delivered, each with its RSSI")
    func duplicates() async throws {
        let testbed = try await BLETestbed.make(seed: 34)
        let seen = try await Self.untilSentinel(testbed.central.scanForPeripherals(withServices: nil, options: ScanOptions(allowDuplicates: true)),
                                                on: testbed.radio)
        let sensor = seen.filter { $0.peripheral.identifier == testbed.sensor.identifier }
        #expect(sensor.count >= 8, "one second of advertising every 30 ms")
        #expect(Set(sensor.map { ObjectIdentifier($0.peripheral) }).count == 1, "one Peripheral object per device")
        await testbed.shutDown()
    }

    @Test("ending the stream's iteration stops the scan; stopScan() finishes a running scan's stream")
    func endingTheScan() async throws {
        let testbed = try await BLETestbed.make(seed: 35)
        for try await _ in testbed.central.scanForPeripherals(withServices: nil) { break }
        await testbed.central.core.untilScanEnds()
        #expect(!testbed.central.isScanning)

        let scan = testbed.central.scanForPeripherals(withServices: nil, options: ScanOptions(allowDuplicates: true))
        var iterator = scan.makeAsyncIterator()
        _ = try await iterator.next()
        #expect(testbed.central.isScanning)
        try await testbed.central.stopScan()
        #expect(!testbed.central.isScanning)
        while try await iterator.next() != nil {}
        await testbed.shutDown()
    }

    @Test("a newer scan ends the older scan's stream and takes over with its own filter")
    func newerScanWins() async throws {
        let testbed = try await BLETestbed.make(seed: 36)
        var older = testbed.central.scanForPeripherals(withServices: nil, options: ScanOptions(allowDuplicates: true)).makeAsyncIterator()
        _ = try await older.next()
        let newer = testbed.central.scanForPeripherals(withServices: [BluetoothUUID(0x180D)])
        while try await older.next() != nil {}
        for try await discovery in newer {
            #expect(discovery.peripheral.identifier == testbed.sensor.identifier)
            break
        }
        await testbed.shutDown()
    }
}
