import BLECore

/// A characteristic found on a peer's GATT server (Core v5.4, Vol 3, Part G, 3.3 and 4.6):
/// what its declaration says, and the handles of its value and descriptors.
///
/// ```swift
/// let heartRate = try await client.discoverCharacteristics(of: service, uuid: BluetoothUUID(0x2A37))[0]
/// heartRate.valueHandle                  // 0x000c
/// heartRate.properties.contains(.notify) // true
/// for await update in try await client.notifications(for: heartRate) { ... }
/// ```
///
/// The characteristic spans ``declarationHandle``...``endHandle``: its declaration, its value,
/// then its descriptors. The end is the handle before the next characteristic declaration, or
/// the service's end for the last characteristic (4.6.1).
public struct RemoteCharacteristic: Sendable, Hashable, CustomStringConvertible {
    /// The Characteristic Properties bit field (Core v5.4, Vol 3, Part G, 3.3.1.1), the same type
    /// the database uses.
    public typealias Properties = GATTCharacteristicProperties

    /// The characteristic UUID: the type of its value attribute (16 or 128 bits).
    public var uuid: BluetoothUUID
    /// The handle of the characteristic declaration.
    public var declarationHandle: UInt16
    /// Characteristic Value Handle: where the value is read, written and notified.
    public var valueHandle: UInt16
    /// The last handle of the characteristic (its last descriptor, or the value itself).
    public var endHandle: UInt16
    /// Characteristic Properties: how the value may be used.
    public var properties: Properties
    /// The descriptors, in handle order; empty until discovered (Part G, 4.7.1).
    public var descriptors: [RemoteDescriptor]

    /// A characteristic declared at `declarationHandle`.
    public init(uuid: BluetoothUUID, declarationHandle: UInt16, valueHandle: UInt16, endHandle: UInt16,
                properties: Properties, descriptors: [RemoteDescriptor] = []) {
        self.uuid = uuid
        self.declarationHandle = declarationHandle
        self.valueHandle = valueHandle
        self.endHandle = endHandle
        self.properties = properties
        self.descriptors = descriptors
    }

    /// The handles where descriptors may sit: after the value, up to ``endHandle``; nil when
    /// there are none (the value is the characteristic's last attribute).
    public var descriptorRange: ClosedRange<UInt16>? {
        guard valueHandle < endHandle else { return nil }
        return (valueHandle &+ 1)...endHandle
    }

    /// The first discovered descriptor with `uuid`.
    public func descriptor(_ uuid: BluetoothUUID) -> RemoteDescriptor? {
        descriptors.first { $0.uuid == uuid }
    }

    /// The Client Characteristic Configuration descriptor (0x2902), if discovered.
    public var clientCharacteristicConfiguration: RemoteDescriptor? {
        descriptor(GATTAttributeType.clientCharacteristicConfiguration)
    }

    /// "Characteristic 2A37 (Heart Rate Measurement) value 0x000c 0x10 [notify]".
    public var description: String {
        "Characteristic \(uuid.descriptionWithName) value \(Hex.hex16(valueHandle)) \(properties)"
    }
}
