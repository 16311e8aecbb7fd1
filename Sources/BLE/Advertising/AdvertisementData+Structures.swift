import BLECore
import Foundation
import HCI

extension AdvertisementData {
    /// Advertisement data made of these AD structures (Core Specification Supplement, Part A,
    /// 1), which a ``PeripheralManager`` advertises exactly as given: `advertisingStructures`
    /// in the advertising PDUs, `scanResponseStructures` in the scan response (SCAN_RSP, or the
    /// extended scan response data; none when empty). Nothing is added: include the Flags
    /// (Part A, 1.3) yourself, and only in the advertising data. The typed fields are decoded
    /// from the structures as a scan decodes what it hears.
    ///
    /// ```swift
    /// let data = try AdvertisementData(advertisingStructures: [.flags([.leGeneralDiscoverableMode, .brEDRNotSupported]),
    ///                                                          .serviceUUIDs(ADUUIDList(uuids16: [0x180D]), isComplete: false)],
    ///                                  scanResponseStructures: [.localName(ADLocalName("Sensor"))])
    /// ```
    ///
    /// - Parameter isConnectable: whether the advertising accepts connections.
    /// - Throws: ``BLEError/invalidArgument(_:)`` for a structure that cannot be encoded (its
    ///   data longer than the 254 octets an AD structure holds, Core v5.4, Vol 3, Part C, 11).
    public init(advertisingStructures: [ADStructure], scanResponseStructures: [ADStructure] = [],
                isConnectable: Bool = true) throws(BLEError) {
        let advertising: AdvertisingData
        var response: AdvertisingData?
        do {
            advertising = try AdvertisingData(structures: advertisingStructures)
            if !scanResponseStructures.isEmpty { response = try AdvertisingData(structures: scanResponseStructures) }
        } catch {
            throw .invalidArgument("\(error)")
        }
        self.init(advertisingData: advertising, scanResponseData: response, isConnectable: isConnectable)
    }

    /// Whether the data is kept as AD structures (heard, or made from structures), which
    /// advertising then sends as they are.
    var isMadeOfStructures: Bool { advertisingData != nil || scanResponseData != nil }

    /// The scan response a peripheral manager sends for this data: the structures of
    /// ``scanResponseData``; none for typed data, whose structures all go in the advertising data.
    var scanResponseStructures: [ADStructure] { scanResponseData?.structures ?? [] }

    /// The AD structures a peripheral manager advertises for this data (Core Specification
    /// Supplement, Part A, 1): those of ``advertisingData`` as they are, when the data is made
    /// of structures; otherwise built from the typed fields: Flags (LE General Discoverable,
    /// BR/EDR Not Supported), the Complete Local Name, complete lists of the service UUIDs by
    /// width, the Tx Power Level, the Manufacturer Specific Data, the Service Data, and the
    /// Service Solicitation lists.
    ///
    /// - Throws: ``BLEError/invalidArgument(_:)`` for manufacturer data shorter than its 2-octet
    ///   Company Identifier, or a Tx Power Level outside -127...127 dBm.
    func structures() throws(BLEError) -> [ADStructure] {
        if isMadeOfStructures { return advertisingData?.structures ?? [] }
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
