import BLECore
import GATT
import HCI

/// The advertising `blectl serve` sends for a database in kernel mode: the payloads fitted to the
/// legacy 31 octets each, so every scanner sees them (Core Specification Supplement, Part A).
///
/// - Advertising data: Flags (LE General Discoverable, BR/EDR Not Supported), the 16-bit UUIDs of
///   the primary services (a complete list when all fit), then the first 128-bit one when it fits
///   (a complete list when it is the only one). Lists are complete or not per width (Part A, 1.1).
/// - Scan response: Manufacturer Specific Data when given, then the Local Name, shortened to
///   what is left when it does not fit.
enum ServeAdvertising {
    static let legacyLength = 31
    /// The most Manufacturer Specific Data (after the company identifier) the scan response
    /// holds: 31 octets less the AD structure's length and type (2) and the company (2).
    static let maximumManufacturerDataLength = legacyLength - 4

    static func payloads(services: [GATTService], name: String, manufacturer: ADManufacturerSpecificData?)
        -> (advertisingData: [ADStructure], scanResponse: [ADStructure]) {
        var advertising: [ADStructure] = [.flags([.leGeneralDiscoverableMode, .brEDRNotSupported])]
        var used = 3
        let primary = services.filter(\.isPrimary).map(\.uuid)
        let short = primary.compactMap(\.uuid16)
        let long = primary.filter { $0.uuid16 == nil && $0.uuid32 == nil }
        if !short.isEmpty {
            let fitting = Array(short.prefix((legacyLength - used - 2) / 2))
            advertising.append(.serviceUUIDs(ADUUIDList(uuids16: fitting), isComplete: fitting.count == short.count))
            used += 2 + 2 * fitting.count
        }
        if let first = long.first, used + 18 <= legacyLength {
            advertising.append(.serviceUUIDs(ADUUIDList(uuids128: [first]), isComplete: long.count == 1))
            used += 18
        }
        var response: [ADStructure] = []
        var left = legacyLength
        if let manufacturer, 4 + manufacturer.data.count <= left {
            response.append(.manufacturerSpecificData(manufacturer))
            left -= 4 + manufacturer.data.count
        }
        let nameOctets = Array(name.utf8)
        if !nameOctets.isEmpty, left > 2 {
            if nameOctets.count <= left - 2 {
                response.append(.localName(ADLocalName(bytes: nameOctets)))
            } else {
                response.append(.localName(ADLocalName(bytes: Self.prefix(of: nameOctets, fitting: left - 2), isComplete: false)))
            }
        }
        return (advertising, response)
    }

    /// The longest prefix of `octets` within `limit` octets that does not cut a UTF-8 sequence.
    static func prefix(of octets: [UInt8], fitting limit: Int) -> [UInt8] {
        var end = min(limit, octets.count)
        while end > 0, end < octets.count, octets[end] & 0xC0 == 0x80 { end -= 1 }
        return Array(octets.prefix(end))
    }
}
