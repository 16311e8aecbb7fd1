import BLECore
import Foundation
import HCI

/// What a peripheral advertises, as Core Bluetooth's advertisement data dictionary, typed: the
/// AD structures of its advertising data and scan response merged (Core Specification
/// Supplement, Part A, 1; Core v5.4, Vol 3, Part C, 11).
///
/// ```swift
/// for try await discovery in central.scanForPeripherals(withServices: [BluetoothUUID("180D")!]) {
///     print(discovery.advertisementData.localName ?? "?", discovery.advertisementData.serviceUUIDs)
/// }
/// ```
///
/// Two values are equal when they carry the same data; a scan without duplicates reports a
/// peripheral again only when this changes.
///
/// **As heard, and as sent.** Data a scan delivers also keeps its two payloads as they were
/// received, raw and decoded (``advertisingData``, ``scanResponseData``); data made with
/// ``init(advertisingStructures:scanResponseStructures:isConnectable:)`` keeps the AD structures
/// given, and a ``PeripheralManager`` advertises those exactly, the scan response included.
/// Setting one of the typed fields (any but ``isConnectable``, which no payload carries) makes
/// the data typed again: the payloads are dropped, and advertising builds the structures from
/// the typed fields.
public struct AdvertisementData: Hashable, Sendable, CustomStringConvertible {
    /// The Complete Local Name, else the Shortened Local Name (Supplement, Part A, 1.2); nil
    /// when neither was sent (or it is not UTF-8).
    public var localName: String? { didSet { dropPayloads() } }
    /// The service UUIDs listed (complete or incomplete lists, 16, 32 and 128 bits; Part A,
    /// 1.1), advertising data first, without repeats.
    public var serviceUUIDs: [BluetoothUUID] { didSet { dropPayloads() } }
    /// The Tx Power Level, in dBm (-127...127; Part A, 1.5); nil when not sent.
    public var txPowerLevel: Int? { didSet { dropPayloads() } }
    /// The first Manufacturer Specific Data (Part A, 1.4): its Company Identifier, least
    /// significant octet first as sent, then its data; nil when not sent.
    public var manufacturerData: Data? { didSet { dropPayloads() } }
    /// The Service Data (Part A, 1.11), by service UUID.
    public var serviceData: [BluetoothUUID: Data] { didSet { dropPayloads() } }
    /// The Service Solicitation UUIDs (Part A, 1.10).
    public var solicitedServiceUUIDs: [BluetoothUUID] { didSet { dropPayloads() } }
    /// Whether the advertising accepts connections (ADV_IND, ADV_DIRECT_IND, or an extended
    /// advertising event with the Connectable bit; Vol 6, Part B, 2.3).
    public var isConnectable: Bool
    /// The advertising data payload as heard (every AD structure, raw octets and decoded, with
    /// a diagnostic for a malformed one; Core v5.4, Vol 3, Part C, 11), or as given to
    /// ``init(advertisingStructures:scanResponseStructures:isConnectable:)``; nil for data made
    /// from typed values, and when only a scan response was heard.
    public private(set) var advertisingData: AdvertisingData?
    /// The scan response payload as heard (active scanning only) or as given; nil when none.
    public private(set) var scanResponseData: AdvertisingData?

    /// Advertisement data from its values; empty and connectable by default.
    public init(localName: String? = nil, serviceUUIDs: [BluetoothUUID] = [], txPowerLevel: Int? = nil,
                manufacturerData: Data? = nil, serviceData: [BluetoothUUID: Data] = [:],
                solicitedServiceUUIDs: [BluetoothUUID] = [], isConnectable: Bool = true) {
        self.localName = localName
        self.serviceUUIDs = serviceUUIDs
        self.txPowerLevel = txPowerLevel
        self.manufacturerData = manufacturerData
        self.serviceData = serviceData
        self.solicitedServiceUUIDs = solicitedServiceUUIDs
        self.isConnectable = isConnectable
    }

    /// The data of everything heard from one advertiser so far.
    init(_ advertisement: Advertisement) {
        self.init(advertisingData: advertisement.advertisingData, scanResponseData: advertisement.scanResponseData,
                  isConnectable: advertisement.isConnectable)
    }

    /// The data of two payloads, each kept as it is, its typed fields decoded from them: the
    /// Complete Local Name from either (else a Shortened one), the service UUIDs and the
    /// solicited ones of both without repeats, the first Tx Power Level, the first Manufacturer
    /// Specific Data, the first Service Data of each service.
    init(advertisingData: AdvertisingData?, scanResponseData: AdvertisingData?, isConnectable: Bool) {
        func unique(_ uuids: [BluetoothUUID]) -> [BluetoothUUID] {
            var seen = Set<BluetoothUUID>()
            return uuids.filter { seen.insert($0).inserted }
        }
        let payloads = [advertisingData, scanResponseData].compactMap { $0 }
        let names = payloads.compactMap(\.localName)
        var serviceData: [BluetoothUUID: Data] = [:]
        for structure in payloads.flatMap(\.serviceData) where serviceData[structure.uuid] == nil {
            serviceData[structure.uuid] = Data(structure.data)
        }
        let manufacturer = payloads.flatMap(\.manufacturerSpecificData).first.map {
            Data([UInt8(truncatingIfNeeded: $0.companyIdentifier), UInt8(truncatingIfNeeded: $0.companyIdentifier >> 8)] + $0.data)
        }
        self.init(localName: (names.first { $0.isComplete } ?? names.first)?.string, serviceUUIDs: unique(payloads.flatMap(\.serviceUUIDs)),
                  txPowerLevel: payloads.lazy.compactMap(\.txPowerLevel).first.map(Int.init), manufacturerData: manufacturer,
                  serviceData: serviceData, solicitedServiceUUIDs: unique(payloads.flatMap(\.solicitedServiceUUIDs)),
                  isConnectable: isConnectable)
        self.advertisingData = advertisingData
        self.scanResponseData = scanResponseData
    }

    /// A typed field changed: the payloads no longer say what the data is.
    private mutating func dropPayloads() {
        advertisingData = nil
        scanResponseData = nil
    }

    /// "\"LinuxBLE HR\", services 180D, connectable".
    public var description: String {
        var parts: [String] = []
        if let localName { parts.append("\"\(localName)\"") }
        if !serviceUUIDs.isEmpty { parts.append("services " + serviceUUIDs.map(\.description).joined(separator: " ")) }
        if let txPowerLevel { parts.append("Tx power \(txPowerLevel) dBm") }
        if let manufacturerData { parts.append("manufacturer data \(Hex.encode([UInt8](manufacturerData)))") }
        for uuid in serviceData.keys.sorted() { parts.append("service data \(uuid) \(Hex.encode([UInt8](serviceData[uuid]!)))") }
        if !solicitedServiceUUIDs.isEmpty { parts.append("solicits " + solicitedServiceUUIDs.map(\.description).joined(separator: " ")) }
        parts.append(isConnectable ? "connectable" : "not connectable")
        return parts.joined(separator: ", ")
    }
}
