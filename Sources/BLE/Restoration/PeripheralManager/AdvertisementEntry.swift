import BLECore
import Foundation
import HCI

/// ``AdvertisementData`` as given to ``PeripheralManager/startAdvertising(_:)``.
struct AdvertisementEntry: StateRecord, Hashable {
    var localName: String?
    var serviceUUIDs: [BluetoothUUID] = []
    /// dBm, -127...127.
    var txPowerLevel: Int?
    /// The Company Identifier (least significant octet first) and the data.
    var manufacturerData: HexOctets?
    var serviceData: [ServiceDataEntry] = []
    var solicitedServiceUUIDs: [BluetoothUUID] = []
    var connectable = true
    /// The advertising data payload, for data made of AD structures
    /// (``AdvertisementData/advertisingData``); absent for typed data.
    var advertisingData: HexOctets?
    /// The scan response payload, for data made of AD structures; absent otherwise.
    var scanResponseData: HexOctets?

    mutating func layout<C: StateCoding>(_ coder: inout C) throws(C.Failure) {
        try coder.field(&localName, "localName")
        try coder.field(&serviceUUIDs, "serviceUUIDs")
        try coder.field(&txPowerLevel, "txPowerLevel")
        try coder.field(&manufacturerData, "manufacturerData")
        try coder.field(&serviceData, "serviceData")
        try coder.field(&solicitedServiceUUIDs, "solicitedServiceUUIDs")
        try coder.field(&connectable, "connectable")
        try coder.field(&advertisingData, "advertisingData")
        try coder.field(&scanResponseData, "scanResponseData")
    }

    func validate(at path: JSONPath) throws(StateFileFault) {
        if let txPowerLevel, !(-127...127).contains(txPowerLevel) {
            throw StateFileFault(path: JSONPath(path.components + [.member("txPowerLevel")]), reason: "\(txPowerLevel) dBm is outside -127...127")
        }
        if Set(serviceData.map(\.uuid)).count != serviceData.count {
            throw StateFileFault(path: JSONPath(path.components + [.member("serviceData")]), reason: "a service UUID is listed twice")
        }
    }

    /// The entry of `data`.
    init(_ data: AdvertisementData) {
        localName = data.localName
        serviceUUIDs = data.serviceUUIDs
        txPowerLevel = data.txPowerLevel
        manufacturerData = data.manufacturerData.map { HexOctets([UInt8]($0)) }
        serviceData = data.serviceData.keys.sorted().map { ServiceDataEntry(uuid: $0, data: HexOctets([UInt8](data.serviceData[$0]!))) }
        solicitedServiceUUIDs = data.solicitedServiceUUIDs
        connectable = data.isConnectable
        advertisingData = data.advertisingData.map { HexOctets($0.bytes) }
        scanResponseData = data.scanResponseData.map { HexOctets($0.bytes) }
    }

    init() {}

    /// The advertisement data it holds: its payloads as they were, when it has them.
    var data: AdvertisementData {
        if advertisingData != nil || scanResponseData != nil {
            return AdvertisementData(advertisingData: advertisingData.map { AdvertisingData(decoding: $0.octets) },
                                     scanResponseData: scanResponseData.map { AdvertisingData(decoding: $0.octets) }, isConnectable: connectable)
        }
        return AdvertisementData(localName: localName, serviceUUIDs: serviceUUIDs, txPowerLevel: txPowerLevel,
                          manufacturerData: manufacturerData.map { Data($0.octets) },
                          serviceData: Dictionary(uniqueKeysWithValues: serviceData.map { ($0.uuid, Data($0.data.octets)) }),
                          solicitedServiceUUIDs: solicitedServiceUUIDs, isConnectable: connectable)
    }
}

/// One Service Data structure: the service's UUID and its data.
struct ServiceDataEntry: StateRecord, Hashable {
    var uuid = BluetoothUUID(0)
    var data = HexOctets([])

    mutating func layout<C: StateCoding>(_ coder: inout C) throws(C.Failure) {
        try coder.field(&uuid, "uuid")
        try coder.field(&data, "data")
    }
}
