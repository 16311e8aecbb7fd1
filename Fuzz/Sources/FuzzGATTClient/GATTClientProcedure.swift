import ATT
import BLECore
import FuzzSupport
import GATT

/// The GATT client procedure a client harness input runs (Core v5.4, Vol 3, Part G, 4), with its
/// arguments read from the input, and the properties of its result that the client promises.
enum GATTClientProcedure: CaseIterable {
    case exchangeMTU, discoverPrimaryServices, discoverPrimaryServicesByUUID, discoverIncludedServices
    case discoverCharacteristics, discoverCharacteristicsByUUID, discoverDescriptors, discoverDatabase
    case readDatabaseHash, readUsableDatabaseHash, read, readLong, readByUUID, readMultiple, readMultipleVariable
    case write, writeLong, reliableWrite, writeWithoutResponse, signedWriteWithoutResponse, subscribe

    /// The arguments every procedure draws from: two handles, a 16-bit UUID, a value, properties.
    struct Arguments: Sendable {
        var first: UInt16
        var second: UInt16
        var uuid: BluetoothUUID
        var value: [UInt8]
        var properties: GATTCharacteristicProperties

        init(_ input: inout FuzzInput) {
            first = input.uint16()
            second = input.uint16()
            uuid = BluetoothUUID(input.uint16())
            value = input.lengthPrefixed()
            properties = GATTCharacteristicProperties(rawValue: input.uint8())
        }

        var range: ClosedRange<UInt16> { min(first, second)...max(first, second) }
        var service: RemoteService { RemoteService(uuid: uuid, handle: range.lowerBound, endHandle: range.upperBound) }
        var characteristic: RemoteCharacteristic {
            RemoteCharacteristic(uuid: uuid, declarationHandle: range.lowerBound, valueHandle: range.lowerBound &+ 1,
                                 endHandle: range.upperBound, properties: properties)
        }
    }

    /// Runs the procedure on `client`; a subscription is returned for the harness to drain.
    /// Errors are the procedure's outcome, not findings: only a broken promise about a result is.
    func run(on client: GATTClient, _ arguments: Arguments) async -> GATTClientSubscription? {
        let a = arguments
        do {
            switch self {
            case .exchangeMTU:
                let mtu = try await client.exchangeMTU()
                FuzzProperty.require((23...517).contains(mtu), "ATT_MTU \(mtu) outside 23...517")
            case .discoverPrimaryServices:
                try checkServices(await client.discoverPrimaryServices())
            case .discoverPrimaryServicesByUUID:
                let services = try await client.discoverPrimaryServices(uuid: a.uuid)
                try checkServices(services)
                FuzzProperty.require(services.allSatisfy { $0.uuid == a.uuid }, "a service of another UUID than \(a.uuid)")
            case .discoverIncludedServices:
                for included in try await client.discoverIncludedServices(of: a.service) {
                    FuzzProperty.require(a.service.handleRange.contains(included.declarationHandle),
                                         "include at \(included.declarationHandle) outside \(a.service.handleRange)")
                }
            case .discoverCharacteristics, .discoverCharacteristicsByUUID:
                let found = self == .discoverCharacteristics
                    ? try await client.discoverCharacteristics(of: a.service)
                    : try await client.discoverCharacteristics(of: a.service, uuid: a.uuid)
                for characteristic in found {
                    FuzzProperty.require(a.service.handleRange.contains(characteristic.declarationHandle)
                                         && a.service.handleRange.contains(characteristic.valueHandle),
                                         "\(characteristic) outside \(a.service.handleRange)")
                    FuzzProperty.require(characteristic.declarationHandle < characteristic.valueHandle, "\(characteristic): value before its declaration")
                }
            case .discoverDescriptors:
                let characteristic = a.characteristic
                for descriptor in try await client.discoverDescriptors(of: characteristic) {
                    FuzzProperty.require(characteristic.descriptorRange?.contains(descriptor.handle) == true,
                                         "\(descriptor) outside \(String(describing: characteristic.descriptorRange))")
                }
            case .discoverDatabase:
                try checkServices(await client.discoverDatabase())
            case .readDatabaseHash:
                if let hash = try await client.readDatabaseHash() { FuzzProperty.require(hash.count == 16, "a Database Hash of \(hash.count) octets") }
            case .readUsableDatabaseHash:
                if let hash = try await client.readUsableDatabaseHash() { FuzzProperty.require(hash.value.count == 16, "a Database Hash of \(hash.value.count) octets") }
            case .read:
                _ = try await client.read(a.first)
            case .readLong:
                _ = try await client.readLong(a.first, offset: a.second & 0x01FF)
            case .readByUUID:
                for value in try await client.read(characteristicUUID: a.uuid, in: a.range) {
                    FuzzProperty.require(a.range.contains(value.handle), "a value at \(value.handle) outside \(a.range)")
                }
            case .readMultiple:
                _ = try await client.readMultiple([a.first, a.second])
            case .readMultipleVariable:
                let values = try await client.readMultipleVariable([a.first, a.second])
                FuzzProperty.require(values.count <= 2, "\(values.count) values for 2 handles")
            case .write:
                try await client.write(a.value, to: a.first)
            case .writeLong:
                try await client.writeLong(a.value + a.value + a.value, to: a.first, offset: a.second & 0x00FF)
            case .reliableWrite:
                try await client.reliableWrite([GATTReliableWrite(handle: a.first, value: a.value),
                                                GATTReliableWrite(handle: a.second, value: a.value.reversed(), offset: 3)])
            case .writeWithoutResponse:
                try await client.writeWithoutResponse(a.value, to: a.first)
            case .signedWriteWithoutResponse:
                await client.setSigningKey(GATTSigningKey(octets: Array(0..<16)), signCounter: UInt32(a.second))
                try await client.signedWriteWithoutResponse(a.value, to: a.first)
            case .subscribe:
                return try await client.notifications(for: a.characteristic)
            }
        } catch {
            _ = error.description
        }
        return nil
    }

    /// Services are in ascending handle order, each a proper group.
    private func checkServices(_ services: [RemoteService]) throws(GATTClientError) {
        for service in services {
            FuzzProperty.require(service.handle != 0 && service.handle <= service.endHandle, "service \(service) is not a group")
            for characteristic in service.characteristics {
                FuzzProperty.require(service.handleRange.contains(characteristic.valueHandle), "\(characteristic) outside \(service)")
            }
        }
    }
}
