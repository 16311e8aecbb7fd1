import BLECore
import Foundation
import HCI

extension AdvertisementData {
    /// The AD structures a peripheral manager advertises for this data (Core Specification
    /// Supplement, Part A, 1): Flags (LE General Discoverable, BR/EDR Not Supported), the
    /// Complete Local Name, complete lists of the service UUIDs by width, the Tx Power Level,
    /// the Manufacturer Specific Data, the Service Data, and the Service Solicitation lists.
    ///
    /// - Throws: ``BLEError/invalidArgument(_:)`` for manufacturer data shorter than its 2-octet
    ///   Company Identifier, or a Tx Power Level outside -127...127 dBm.
    func structures() throws(BLEError) -> [ADStructure] {
        var structures: [ADStructure] = [.flags([.leGeneralDiscoverableMode, .brEDRNotSupported])]
        if let localName { structures.append(.localName(ADLocalName(localName))) }
        structures += Self.lists(serviceUUIDs).map { .serviceUUIDs($0, isComplete: true) }
        if let txPowerLevel {
            guard let level = Int8(exactly: txPowerLevel), level != .min else {
                throw .invalidArgument("a Tx Power Level of \(txPowerLevel) dBm is outside -127...127")
            }
            structures.append(.txPowerLevel(level))
        }
        if let manufacturerData {
            let octets = [UInt8](manufacturerData)
            guard octets.count >= 2 else {
                throw .invalidArgument("manufacturer data starts with its 2-octet Company Identifier; got \(octets.count) octets")
            }
            structures.append(.manufacturerSpecificData(ADManufacturerSpecificData(
                companyIdentifier: UInt16(octets[0]) | UInt16(octets[1]) << 8, data: Array(octets[2...]))))
        }
        for uuid in serviceData.keys.sorted() {
            structures.append(.serviceData(ADServiceData(uuid: uuid, data: [UInt8](serviceData[uuid]!))))
        }
        structures += Self.lists(solicitedServiceUUIDs).map { .serviceSolicitation($0) }
        return structures
    }

    /// `uuids` in one list per width (16, 32, 128 bits), each UUID in its shortest form.
    private static func lists(_ uuids: [BluetoothUUID]) -> [ADUUIDList] {
        var seen = Set<BluetoothUUID>()
        let unique = uuids.filter { seen.insert($0).inserted }.map(\.shortest)
        return BluetoothUUID.Width.allCases.compactMap { width in
            let group = unique.filter { $0.width == width }
            return group.isEmpty ? nil : ADUUIDList(width: width, uuids: group)
        }
    }
}
