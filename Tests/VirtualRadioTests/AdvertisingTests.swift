import BLECore
import HCI
import Host
import Testing
import VirtualRadio
import BLETestSupport

/// Flags (LE General Discoverable, BR/EDR not supported) and Complete Local Name "VR1".
let advertisingData: [UInt8] = [0x02, 0x01, 0x06, 0x04, 0x09, 0x56, 0x52, 0x31]
/// Complete Local Name "scan-response".
let scanResponseData: [UInt8] = [0x0E, 0x09] + Array("scan-response".utf8)

@Suite("VirtualRadio advertising and scanning, legacy and extended (Core v5.4, Vol 4, Part E, 7.8; Vol 6, Part B, 4.4)",
       .timeLimit(.minutes(1)))
struct AdvertisingTests {
    /// An advertiser (controller 1) with legacy ADV_IND every 100 ms and a scanner (controller 2).
    func legacyPair(extendedScanner: Bool = false, active: Bool = false, filterDuplicates: Bool = false,
                    seed: UInt64 = 1) async throws -> (VirtualRadio, TestHost, TestHost) {
        let radio = VirtualRadio(seed: seed, timing: .manual)
        let advertiser = TestHost(radio.makeController(configuration: configuration(1)))
        let scanner = TestHost(radio.makeController(configuration: configuration(2)))
        try await advertiser.bringUp()
        try await scanner.bringUp()
        try await advertiser.command(advertisingParameters())
        try await advertiser.command(HCILESetAdvertisingData(advertisingData: advertisingData))
        try await advertiser.command(HCILESetScanResponseData(scanResponseData: scanResponseData))
        #expect(try await advertiser.command(HCILESetAdvertisingEnable(enable: true)).status == .success)
        let type: LEScanType = active ? .active : .passive
        if extendedScanner {
            try await scanner.command(HCILESetExtendedScanParameters(ownAddressType: .public, le1M: .init(
                scanType: type, scanInterval: .init(rawValue: 16), scanWindow: .init(rawValue: 16))))
            #expect(try await scanner.command(HCILESetExtendedScanEnable(enable: 1, filterDuplicates: filterDuplicates ? 1 : 0)).status == .success)
        } else {
            try await scanner.command(HCILESetScanParameters(leScanType: type, leScanInterval: .init(rawValue: 16),
                                                             leScanWindow: .init(rawValue: 16), ownAddressType: .public))
            #expect(try await scanner.command(HCILESetScanEnable(enable: true, filterDuplicates: filterDuplicates)).status == .success)
        }
        return (radio, advertiser, scanner)
    }

    @Test("a legacy scanner hears legacy ADV_IND as LE Advertising Reports every interval plus advDelay (0-10 ms)")
    func legacyReports() async throws {
        let (radio, _, scanner) = try await legacyPair()
        var times: [Duration] = []
        for _ in 0..<1000 {
            let before = scanner.leEvents.count
            await radio.advance(by: .milliseconds(1))
            await scanner.settle()
            if scanner.leEvents.count > before { times.append(radio.now) }
        }
        let reports = scanner.leEvents.flatMap(\.advertisingReports)
        #expect((9...11).contains(reports.count), "\(reports.count) reports in 1 s at 100 ms")
        #expect(scanner.leEvents.allSatisfy { $0.subeventCode == .advertisingReport }, "only legacy reports")
        for report in reports {
            #expect(report.eventType == .advInd)
            #expect(report.address == address("C0:00:00:00:00:01"))
            #expect(report.addressType == .public)
            #expect(report.data == advertisingData)
            #expect((-63 ... -57).contains(report.rssi), "RSSI -60 dBm ±3")
        }
        for (earlier, later) in zip(times, times.dropFirst()) {
            let gap = later - earlier
            #expect(gap >= .milliseconds(99) && gap <= .milliseconds(111), "gap \(gap)")
        }
    }

    @Test("passive scanning gets no scan response; active scanning gets the real scan response data (SCAN_RSP)")
    func activeScanning() async throws {
        let (radio, _, passive) = try await legacyPair(active: false)
        await radio.advance(by: .milliseconds(500))
        await passive.settle()
        #expect(!passive.leEvents.flatMap(\.advertisingReports).isEmpty)
        #expect(passive.leEvents.flatMap(\.advertisingReports).allSatisfy { $0.eventType == .advInd })

        let (radio2, _, active) = try await legacyPair(active: true)
        await radio2.advance(by: .milliseconds(500))
        await active.settle()
        let reports = active.leEvents.flatMap(\.advertisingReports)
        let responses = reports.filter { $0.eventType == .scanRsp }
        let adverts = reports.filter { $0.eventType == .advInd }
        #expect(!responses.isEmpty)
        #expect(responses.count == adverts.count, "one SCAN_RSP per ADV_IND")
        #expect(responses.allSatisfy { $0.data == scanResponseData })
        #expect(adverts.allSatisfy { $0.data == advertisingData })
        // Each scan response follows its advertising report.
        for (index, report) in reports.enumerated() where report.eventType == .scanRsp {
            #expect(index > 0 && reports[index - 1].eventType == .advInd)
        }
    }

    @Test("an extended scanner gets legacy PDUs as LE Extended Advertising Reports with the legacy bits")
    func extendedScannerLegacyPDU() async throws {
        let (radio, _, scanner) = try await legacyPair(extendedScanner: true, active: true)
        await radio.advance(by: .milliseconds(300))
        await scanner.settle()
        let reports = scanner.leEvents.flatMap(\.extendedReports)
        #expect(scanner.leEvents.allSatisfy { $0.subeventCode == .extendedAdvertisingReport })
        let adverts = reports.filter { !$0.eventType.isScanResponse }
        let responses = reports.filter { $0.eventType.isScanResponse }
        #expect(!adverts.isEmpty && adverts.count == responses.count)
        #expect(adverts.allSatisfy { $0.eventType.rawValue == 0x0013 && $0.eventType.legacyPDU == .advInd && $0.data == advertisingData })
        #expect(responses.allSatisfy { $0.eventType.rawValue == 0x001B && $0.data == scanResponseData })
        #expect(reports.allSatisfy { $0.advertisingSID == 0xFF && $0.primaryPHY == 0x01 && $0.secondaryPHY == 0x00 })
    }

    @Test("controller duplicate filtering: one report per advertiser and kind while the data stay the same")
    func duplicateFiltering() async throws {
        let (radio, advertiser, scanner) = try await legacyPair(active: true, filterDuplicates: true)
        await radio.advance(by: .seconds(1))
        await scanner.settle()
        #expect(scanner.leEvents.flatMap(\.advertisingReports).map(\.eventType) == [.advInd, .scanRsp])
        // Changed advertising data is reported again.
        try await advertiser.command(HCILESetAdvertisingData(advertisingData: [0x02, 0x01, 0x04]))
        await radio.advance(by: .seconds(1))
        await scanner.settle()
        #expect(scanner.leEvents.flatMap(\.advertisingReports).map(\.eventType) == [.advInd, .scanRsp, .advInd])
    }

    @Test("masked advertising reports are not sent (LE Meta off, or the subevent off)")
    func maskedReports() async throws {
        let (radio, _, scanner) = try await legacyPair()
        try await scanner.command(HCILESetEventMask(leEventMask: [.connectionComplete]))
        await radio.advance(by: .milliseconds(500))
        try await scanner.command(HCILESetEventMask(leEventMask: .resetDefault))
        try await scanner.command(HCISetEventMask(eventMask: .resetDefault))   // LE Meta is not in the default
        await radio.advance(by: .milliseconds(500))
        await scanner.settle()
        #expect(scanner.leEvents.isEmpty)
        try await scanner.command(HCISetEventMask(eventMask: [.leMeta]))
        await radio.advance(by: .milliseconds(300))
        await scanner.settle()
        #expect(!scanner.leEvents.isEmpty)
    }

    /// An extended advertiser: set 0 with `properties`, `data` given in fragments of 200 octets.
    func extendedAdvertiser(_ radio: VirtualRadio, properties: LEAdvertisingEventProperties, data: [UInt8],
                            scanResponse: [UInt8] = []) async throws -> TestHost {
        let host = TestHost(radio.makeController(configuration: configuration(1)))
        try await host.bringUp()
        let parameters = try await host.command(HCILESetExtendedAdvertisingParameters(
            advertisingHandle: 0, advertisingEventProperties: properties,
            primaryAdvertisingIntervalMin: .init(rawValue: 0xA0), primaryAdvertisingIntervalMax: .init(rawValue: 0xA0),
            secondaryAdvertisingPHY: .le2M, advertisingSID: 3))
        #expect(parameters.status == .success)
        var offset = 0
        repeat {
            let end = min(data.count, offset + 200)
            let operation: LEAdvertisingDataOperation = offset == 0 ? (end == data.count ? .complete : .firstFragment)
                : (end == data.count ? .lastFragment : .intermediateFragment)
            let answer = try await host.command(HCILESetExtendedAdvertisingData(
                advertisingHandle: 0, operation: operation, fragmentPreference: .mayFragment, advertisingData: Array(data[offset..<end])))
            #expect(answer.status == .success)
            offset = end
        } while offset < data.count
        if !scanResponse.isEmpty {
            #expect(try await host.command(HCILESetExtendedScanResponseData(advertisingHandle: 0, scanResponseData: scanResponse)).status == .success)
        }
        #expect(try await host.command(HCILESetExtendedAdvertisingEnable(enable: 1, sets: [.init(advertisingHandle: 0)])).status == .success)
        return host
    }

    func extendedScanner(_ radio: VirtualRadio, active: Bool = false) async throws -> TestHost {
        let host = TestHost(radio.makeController(configuration: configuration(2)))
        try await host.bringUp()
        try await host.command(HCILESetExtendedScanParameters(ownAddressType: .public, le1M: .init(
            scanType: active ? .active : .passive, scanInterval: .init(rawValue: 16), scanWindow: .init(rawValue: 16))))
        try await host.command(HCILESetExtendedScanEnable(enable: 1, filterDuplicates: 0))
        return host
    }

    @Test("extended advertising data longer than one report arrives in fragments with Data Status 'more data to come'")
    func extendedFragments() async throws {
        let radio = VirtualRadio(timing: .manual)
        let data = (0..<500).map { UInt8(truncatingIfNeeded: $0) }
        _ = try await extendedAdvertiser(radio, properties: [], data: data)
        let scanner = try await extendedScanner(radio)
        await radio.advance(by: .milliseconds(11))          // the first event only (advDelay 0-10 ms)
        await scanner.settle()
        let reports = scanner.leEvents.flatMap(\.extendedReports)
        #expect(reports.count == 3, "500 octets: 229 + 229 + 42")
        #expect(reports.map(\.data.count) == [229, 229, 42])
        #expect(reports.map(\.eventType.dataStatus) == [.incompleteMoreToCome, .incompleteMoreToCome, .complete])
        #expect(reports.flatMap(\.data) == data, "the fragments join to the data")
        #expect(reports.allSatisfy { !$0.eventType.isLegacy && $0.advertisingSID == 3 && $0.secondaryPHY == 0x02 })
        // The host's accumulator puts them back together.
        var accumulator = AdvertisementAccumulator()
        let updates = reports.map { accumulator.add($0) }
        #expect(updates.last?.disposition == .complete)
    }

    @Test("a legacy scanner does not hear extended PDUs; an extended scanner does, scannable ones with their scan response")
    func extendedPDUsOnlyForExtendedScanners() async throws {
        let radio = VirtualRadio(timing: .manual)
        _ = try await extendedAdvertiser(radio, properties: [.scannable], data: [], scanResponse: scanResponseData)
        let legacy = TestHost(radio.makeController(configuration: configuration(3)))
        try await legacy.bringUp()
        try await legacy.command(HCILESetScanParameters(leScanType: .active, leScanInterval: .init(rawValue: 16),
                                                        leScanWindow: .init(rawValue: 16), ownAddressType: .public))
        try await legacy.command(HCILESetScanEnable(enable: true))
        let extended = try await extendedScanner(radio, active: true)
        await radio.advance(by: .milliseconds(500))
        await legacy.settle()
        await extended.settle()
        #expect(legacy.leEvents.isEmpty)
        let reports = extended.leEvents.flatMap(\.extendedReports)
        #expect(reports.contains { $0.eventType.rawValue == 0x0002 && $0.data.isEmpty })
        #expect(reports.contains { $0.eventType.rawValue == 0x000A && $0.data == scanResponseData })
    }

    @Test("LEScanner (Host) discovers a virtual advertiser by name over HCICommandFlow")
    func hostScanner() async throws {
        let radio = VirtualRadio(timing: .manual)
        let advertiser = try await extendedAdvertiser(radio, properties: .legacyAdvInd, data: advertisingData)
        _ = advertiser
        let controller = radio.makeController(configuration: configuration(2))
        let flow = HCICommandFlow(transport: controller.attach(), clock: radio.clock)
        try await flow.send(HCIReset())
        try await flow.send(HCISetEventMask(eventMask: HCIEventMask(rawValue: 0x3FFF_FFFF_FFFF_FFFF)))
        try await flow.send(HCILESetEventMask(leEventMask: standardLEMask))
        let scanner = LEScanner(flow: flow, capabilities: try await LEControllerCapabilities.read(from: flow))
        let discoveries = try await scanner.start()
        await radio.advance(by: .milliseconds(200))
        var iterator = discoveries.makeAsyncIterator()
        let first = await iterator.next()
        #expect(first?.localName == "VR1")
        #expect(first?.address == address("C0:00:00:00:00:01"))
        try await scanner.stop()
        await flow.close()
    }

    @Test("extended advertising: Duration ends with Advertising Set Terminated 0x3C, Max events with 0x43")
    func extendedLimits() async throws {
        let radio = VirtualRadio(timing: .manual)
        let host = TestHost(radio.makeController(configuration: configuration(1)))
        try await host.bringUp()
        for handle: UInt8 in [0, 1] {
            try await host.command(HCILESetExtendedAdvertisingParameters(
                advertisingHandle: handle, advertisingEventProperties: [],
                primaryAdvertisingIntervalMin: .init(rawValue: 0xA0), primaryAdvertisingIntervalMax: .init(rawValue: 0xA0)))
        }
        try await host.command(HCILESetExtendedAdvertisingEnable(enable: 1, sets: [
            .init(advertisingHandle: 0, duration: .init(rawValue: 50)),             // 500 ms
            .init(advertisingHandle: 1, maxExtendedAdvertisingEvents: 3),
        ]))
        await radio.advance(by: .seconds(1))
        await host.settle()
        let terminated = host.leEvents.compactMap { event -> LEMetaEvent.AdvertisingSetTerminated? in
            if case .advertisingSetTerminated(let e) = event { return e } else { return nil }
        }
        #expect(terminated.count == 2)
        #expect(terminated.contains { $0.advertisingHandle == 1 && $0.status == .limitReached && $0.numCompletedExtendedAdvertisingEvents == 3 })
        #expect(terminated.contains { $0.advertisingHandle == 0 && $0.status == .advertisingTimeout })
    }

    @Test("extended data commands: fragment order, capacity, unknown sets and what a set's type allows")
    func extendedDataRules() async throws {
        let radio = VirtualRadio(timing: .manual)
        var config = configuration(1)
        config.maximumAdvertisingDataLength = 300
        let host = TestHost(radio.makeController(configuration: config))
        try await host.bringUp()
        #expect(try await host.command(HCILESetExtendedAdvertisingData(advertisingHandle: 0, advertisingData: [])).status
                == .unknownAdvertisingIdentifier)
        try await host.command(HCILESetExtendedAdvertisingParameters(
            advertisingHandle: 0, advertisingEventProperties: [],
            primaryAdvertisingIntervalMin: .init(rawValue: 0xA0), primaryAdvertisingIntervalMax: .init(rawValue: 0xA0)))
        #expect(try await host.command(HCILESetExtendedAdvertisingData(
            advertisingHandle: 0, operation: .intermediateFragment, advertisingData: [1])).status == .invalidHCICommandParameters)
        #expect(try await host.command(HCILESetExtendedAdvertisingData(
            advertisingHandle: 0, operation: .firstFragment, advertisingData: Array(repeating: 1, count: 200))).status == .success)
        #expect(try await host.command(HCILESetExtendedAdvertisingData(
            advertisingHandle: 0, operation: .lastFragment, advertisingData: Array(repeating: 2, count: 200))).status == .memoryCapacityExceeded)
        #expect(try await host.command(HCILESetExtendedScanResponseData(
            advertisingHandle: 0, scanResponseData: [1, 2])).status == .invalidHCICommandParameters, "not scannable")
        #expect(try await host.command(HCILESetExtendedAdvertisingParameters(
            advertisingHandle: 1, advertisingEventProperties: [.connectable, .scannable],
            primaryAdvertisingIntervalMin: .init(rawValue: 0xA0), primaryAdvertisingIntervalMax: .init(rawValue: 0xA0))).status
                == .invalidHCICommandParameters)
        #expect(try await host.command(HCILESetExtendedAdvertisingParameters(
            advertisingHandle: 2, advertisingEventProperties: [.scannable],
            primaryAdvertisingIntervalMin: .init(rawValue: 0xA0), primaryAdvertisingIntervalMax: .init(rawValue: 0xA0))).status == .success)
        #expect(try await host.command(HCILESetExtendedAdvertisingEnable(enable: 1, sets: [.init(advertisingHandle: 2)])).status
                == .commandDisallowed, "scannable without scan response data")
        #expect(try await host.command(HCILESetExtendedAdvertisingEnable(enable: 1, sets: [.init(advertisingHandle: 9)])).status
                == .unknownAdvertisingIdentifier)
        // Sets: how many, removing one, clearing all, never while enabled.
        let sets = try await host.command(HCILEReadNumberOfSupportedAdvertisingSets())
            .parameters(HCILEReadNumberOfSupportedAdvertisingSets.self)
        #expect(sets.numSupportedAdvertisingSets == 4)
        #expect(try await host.command(HCILERemoveAdvertisingSet(advertisingHandle: 9)).status == .unknownAdvertisingIdentifier)
        try await host.command(HCILESetExtendedAdvertisingData(advertisingHandle: 0, advertisingData: [2, 1, 6]))
        try await host.command(HCILESetExtendedAdvertisingEnable(enable: 1, sets: [.init(advertisingHandle: 0)]))
        #expect(try await host.command(HCILERemoveAdvertisingSet(advertisingHandle: 0)).status == .commandDisallowed)
        #expect(try await host.command(HCILEClearAdvertisingSets()).status == .commandDisallowed)
        #expect(try await host.command(HCILERemoveAdvertisingSet(advertisingHandle: 2)).status == .success)
        try await host.command(HCILESetExtendedAdvertisingEnable(enable: 0, sets: []))
        #expect(try await host.command(HCILEClearAdvertisingSets()).status == .success)
        #expect(try await host.command(HCILESetExtendedAdvertisingData(advertisingHandle: 0, advertisingData: [])).status
                == .unknownAdvertisingIdentifier)
    }
}

@Suite("VirtualRadio with the Host layer's advertiser", .timeLimit(.minutes(1)))
struct HostAdvertiserTests {
    @Test("LEAdvertiser advertises again after each connection, so two centrals connect to one virtual peripheral")
    func readvertising() async throws {
        let radio = VirtualRadio(timing: .manual)
        let peripheralController = radio.makeController(configuration: configuration(1))
        let flow = HCICommandFlow(transport: peripheralController.attach(), clock: radio.clock)
        try await flow.send(HCIReset())
        try await flow.send(HCISetEventMask(eventMask: HCIEventMask(rawValue: 0x3FFF_FFFF_FFFF_FFFF)))
        try await flow.send(HCILESetEventMask(leEventMask: standardLEMask))
        let advertiser = LEAdvertiser(flow: flow, capabilities: try await LEControllerCapabilities.read(from: flow))
        try await advertiser.start(LEAdvertisingParameters(advertisingData: [.flags([.leGeneralDiscoverableMode])],
                                                           readvertiseAfterConnection: true))
        let centrals = [TestHost(radio.makeController(configuration: configuration(2))),
                        TestHost(radio.makeController(configuration: configuration(3)))]
        for (index, central) in centrals.enumerated() {
            try await central.bringUp()
            try await central.command(createConnection(to: address("C0:00:00:00:00:01")))
            await radio.advance(by: .milliseconds(200))
            await central.settle()
            #expect(central.leEvents.compactMap(\.connectionComplete).first?.status == .success)
            // Let the advertiser see this connection (its isAdvertising is stale until then) and
            // enable its set again. Manual time: nothing else moves meanwhile.
            _ = await eventually {
                guard await advertiser.connectionHandles.count == index + 1 else { return false }
                return await advertiser.isAdvertising
            }
        }
        #expect(peripheralController.connectionHandles.count == 2)
        #expect(await advertiser.connectionHandles == Set(peripheralController.connectionHandles))
        #expect(await advertiser.readvertisingErrors.isEmpty)
        await flow.close()
    }

    @Test("connectable extended advertising data must fit one AUX_ADV_IND (245 octets) to be enabled")
    func connectableLimit() async throws {
        let radio = VirtualRadio(timing: .manual)
        let host = TestHost(radio.makeController(configuration: configuration(1)))
        try await host.bringUp()
        try await host.command(HCILESetExtendedAdvertisingParameters(
            advertisingHandle: 0, advertisingEventProperties: [.connectable],
            primaryAdvertisingIntervalMin: .init(rawValue: 0xA0), primaryAdvertisingIntervalMax: .init(rawValue: 0xA0)))
        try await host.command(HCILESetExtendedAdvertisingData(advertisingHandle: 0, advertisingData: Array(repeating: 0, count: 246)))
        #expect(try await host.command(HCILESetExtendedAdvertisingEnable(enable: 1, sets: [.init(advertisingHandle: 0)])).status
                == .invalidHCICommandParameters)
        try await host.command(HCILESetExtendedAdvertisingData(advertisingHandle: 0, advertisingData: Array(repeating: 0, count: 245)))
        #expect(try await host.command(HCILESetExtendedAdvertisingEnable(enable: 1, sets: [.init(advertisingHandle: 0)])).status == .success)
    }
}
