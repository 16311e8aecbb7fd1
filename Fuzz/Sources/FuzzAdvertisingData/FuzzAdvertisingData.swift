import BLECore
import FuzzSupport
import HCI

/// Advertising data decode (Core v5.4, Vol 3, Part C, 11; Supplement to the Core Specification,
/// Part A): whatever the octets, the elements tile the payload from offset 0 up to a zero Length
/// octet or the end, each one's extent following its Length octet alone, a structure that runs
/// past the end diagnosed and not decoded; a well-formed payload encodes back from its typed
/// structures to the same octets. Every accessor answers without trapping.
enum AdvertisingDataHarness {
    static func test(_ bytes: [UInt8]) {
        let ad = AdvertisingData(decoding: bytes)
        FuzzProperty.require(ad.bytes == bytes, "bytes kept of \(Hex.encode(bytes))")
        var next = 0
        for element in ad.elements {
            FuzzProperty.require(element.offset == next, "element at \(element.offset), expected \(next), in \(Hex.encode(bytes))")
            FuzzProperty.require(element.length != 0 && element.length == bytes[element.offset], "Length of the element at \(element.offset)")
            let declaredEnd = element.offset + 1 + Int(element.length)
            let end = min(declaredEnd, bytes.count)
            FuzzProperty.require(element.extent == end - element.offset && Array(element.octets) == Array(bytes[element.offset..<end]),
                                 "extent of the element at \(element.offset) in \(Hex.encode(bytes))")
            if declaredEnd > bytes.count {
                FuzzProperty.require(element.diagnostic != nil && element.structure == nil, "a structure running past the end decoded: \(Hex.encode(bytes))")
            }
            if element.diagnostic == nil, element.type != nil {
                FuzzProperty.require(element.structure != nil, "a structure without diagnostic did not decode at \(element.offset): \(Hex.encode(bytes))")
            }
            if let diagnostic = element.diagnostic {
                FuzzProperty.require(diagnostic.offset == element.offset, "diagnostic offset \(diagnostic.offset) of the element at \(element.offset)")
                _ = diagnostic.decodingError
            }
            _ = element.description
            next = end
        }
        FuzzProperty.require(next == ad.significantLength, "elements end at \(next), significant length \(ad.significantLength): \(Hex.encode(bytes))")
        if let terminator = ad.terminatorOffset {
            FuzzProperty.require(terminator == next && bytes[terminator] == 0, "terminator at \(terminator) in \(Hex.encode(bytes))")
        } else {
            FuzzProperty.require(next == bytes.count, "no terminator, elements end at \(next) of \(bytes.count)")
        }
        if ad.isWellFormed {
            do {
                let again = try AdvertisingData(structures: ad.structures)
                FuzzProperty.require(again.encoded == Array(bytes[..<ad.significantLength]),
                                     "structures of \(Hex.encode(bytes)) encode to \(Hex.encode(again.encoded))")
                FuzzProperty.require(again.structures == ad.structures, "structures differ after a round trip of \(Hex.encode(bytes))")
            } catch {
                FuzzProperty.fail("the well-formed \(Hex.encode(bytes)) does not encode from its structures: \(error)")
            }
        }
        // The accessors a scanner's user reads.
        _ = (ad.flags, ad.localName, ad.serviceUUIDs, ad.solicitedServiceUUIDs, ad.manufacturerSpecificData, ad.serviceData)
        _ = (ad.txPowerLevel, ad.appearance, ad.publicTargetAddresses, ad.randomTargetAddresses, ad.advertisingInterval)
        _ = (ad.leRole, ad.uris, ad.leSupportedFeatures, ad.peripheralConnectionIntervalRange, ad.description)
        _ = ad.hasCompleteServiceUUIDList(width: .bits16)
    }
}

@_cdecl("FuzzAdvertisingData_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        AdvertisingDataHarness.test(FuzzInput.octets(data, size))
        return 0
    }
}
