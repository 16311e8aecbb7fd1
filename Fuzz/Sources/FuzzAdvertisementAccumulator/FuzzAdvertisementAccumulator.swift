import BLECore
import FuzzSupport
import HCI

/// The advertisement accumulator (Core v5.4, Vol 4, Part E, 7.7.65.2 and 7.7.65.13) fed a
/// sequence of legacy and extended advertising reports from four advertisers, with limits small
/// enough that evictions, dropped chains and the length cut happen: after every report the
/// accumulator keeps within its limits, a complete or truncated report returns its advertisement
/// as stored, and nothing stored exceeds the data length limit.
///
/// Input, repeated to the end: one control octet (bit 0: extended; bits 1-2: which of four
/// addresses), then for a legacy report Event_Type, Address_Type, RSSI and the data (a length
/// octet, then that many octets); for an extended report Event_Type (two octets, Data Status in
/// bits 5-6), Address_Type, Advertising_SID, RSSI, TX_Power and the data likewise.
enum AdvertisementAccumulatorHarness {
    static let limits = AdvertisementAccumulator.Limits(maximumAdvertisers: 3, maximumPendingChains: 2, maximumDataLength: 64)
    static let addresses: [BluetoothAddress] = [0xC0FFEEC0FFEE, 0xD00DFEED4852, 0x112233445566, 0x000000000001].map { BluetoothAddress($0) }

    static func test(_ bytes: [UInt8]) {
        var input = FuzzInput(bytes)
        var accumulator = AdvertisementAccumulator(limits: limits)
        while !input.isAtEnd {
            let control = input.uint8()
            let address = addresses[Int(control >> 1) & 0x03]
            let key: AdvertiserKey
            let update: AdvertisementAccumulator.Update
            let isScanResponse: Bool
            if control & 1 == 0 {
                let report = LEAdvertisingReport(eventType: .init(rawValue: input.uint8()), addressType: LEAddressType(rawValue: input.uint8()),
                                                 address: address, data: [], rssi: Int8(bitPattern: input.uint8()))
                var withData = report
                withData.data = input.lengthPrefixed()
                key = AdvertiserKey(address: address, addressType: report.addressType)
                isScanResponse = report.eventType.isScanResponse
                update = accumulator.add(withData)
            } else {
                let eventType = LEExtendedAdvertisingReport.EventType(rawValue: input.uint16())
                let addressType = LEAddressType(rawValue: input.uint8())
                let sid = input.uint8()
                let report = LEExtendedAdvertisingReport(eventType: eventType, addressType: addressType, address: address,
                                                         advertisingSID: sid, txPower: Int8(bitPattern: input.uint8()),
                                                         rssi: Int8(bitPattern: input.uint8()), data: input.lengthPrefixed())
                key = AdvertiserKey(address: address, addressType: addressType, advertisingSID: sid)
                isScanResponse = eventType.isScanResponse
                update = accumulator.add(report)
            }
            check(accumulator, update, key: key, isScanResponse: isScanResponse, input: bytes)
        }
        accumulator.removeAll()
        FuzzProperty.require(accumulator.count == 0 && accumulator.pendingChainCount == 0, "removeAll left state")
    }

    static func check(_ accumulator: AdvertisementAccumulator, _ update: AdvertisementAccumulator.Update,
                      key: AdvertiserKey, isScanResponse: Bool, input: [UInt8]) {
        // Built only for a failure message: describing the key and the whole input after every
        // report made each execution quadratic in the input's length.
        func context() -> String { "after a report of \(key) in \(Hex.encode(input))" }
        FuzzProperty.require(accumulator.count <= limits.maximumAdvertisers, "\(accumulator.count) advertisements \(context())")
        let advertisements = accumulator.advertisements                // built (mapped and sorted) once
        FuzzProperty.require(advertisements.count == accumulator.count, "advertisements and count disagree \(context())")
        FuzzProperty.require(accumulator.pendingChainCount <= limits.maximumPendingChains, "\(accumulator.pendingChainCount) chains \(context())")
        FuzzProperty.require(accumulator.pendingOctets <= limits.maximumPendingChains * limits.maximumDataLength,
                             "\(accumulator.pendingOctets) pending octets \(context())")
        for advertisement in advertisements {
            FuzzProperty.require((advertisement.advertisingData?.bytes.count ?? 0) <= limits.maximumDataLength
                                 && (advertisement.scanResponseData?.bytes.count ?? 0) <= limits.maximumDataLength,
                                 "a payload longer than the limit \(context())")
        }
        // Only a store changes an advertisement, and every store leaves the advertisement in the
        // update (a cut-short chain is of the report's own key), so this reaches every state
        // the readers can see without describing the unchanged ones again.
        if let changed = update.advertisement {
            _ = (changed.description, changed.localName, changed.serviceUUIDs)
        }
        switch update.disposition {
        case .complete, .truncated:
            guard let stored = update.advertisement else { FuzzProperty.fail("\(update.disposition) without an advertisement \(context())") }
            FuzzProperty.require(stored.key == key, "the update's advertisement is \(stored.key) \(context())")
            FuzzProperty.require(accumulator[key] == stored, "the update's advertisement is not the one stored \(context())")
            if update.disposition == .truncated {
                FuzzProperty.require(isScanResponse ? stored.isScanResponseDataTruncated : stored.isAdvertisingDataTruncated,
                                     "truncated but not marked so \(context())")
            }
        case .pending, .discarded:
            break
        }
        for eviction in update.evictions {
            if case .advertisement(let evicted) = eviction {
                FuzzProperty.require(evicted.key == key || accumulator[evicted.key] == nil, "evicted \(evicted.key) is still stored \(context())")
            }
        }
    }
}

@_cdecl("FuzzAdvertisementAccumulator_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        AdvertisementAccumulatorHarness.test(FuzzInput.octets(data, size))
        return 0
    }
}
