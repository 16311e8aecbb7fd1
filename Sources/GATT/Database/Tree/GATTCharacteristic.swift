import BLECore

/// A characteristic of a built ``GATTDatabase`` (Core v5.4, Vol 3, Part G, 3.3): its declaration,
/// value and descriptors.
public struct GATTCharacteristic: Sendable {
    /// The handle of the characteristic declaration.
    public let declarationHandle: UInt16
    /// The handle of the characteristic value attribute.
    public let valueHandle: UInt16
    /// The last handle of the characteristic definition, as a client computes it for descriptor
    /// discovery (4.7.1): the handle before the next characteristic declaration, or the
    /// service's End Group Handle.
    public let endHandle: UInt16
    /// The characteristic UUID, the type of the value attribute.
    public let uuid: BluetoothUUID
    /// The Characteristic Properties, as declared.
    public let properties: GATTCharacteristicProperties
    /// The Characteristic Extended Properties (empty when there is no such descriptor).
    public let extendedProperties: GATTCharacteristicExtendedProperties
    /// The permissions of the value attribute.
    public let permissions: GATTPermissions
    /// The value.
    public let value: GATTAttributeValue
    /// The descriptors, in handle order.
    public let descriptors: [GATTDescriptor]

    /// The declaration's value.
    public var declaration: GATTCharacteristicDeclaration {
        GATTCharacteristicDeclaration(properties: properties, valueHandle: valueHandle, uuid: uuid)
    }

    /// The handles of the definition: declaration through ``endHandle``.
    public var handleRange: ClosedRange<UInt16> { declarationHandle...endHandle }

    /// The first descriptor of type `type`, if any.
    public func descriptor(_ type: BluetoothUUID) -> GATTDescriptor? { descriptors.first { $0.type == type } }

    /// The handle of the Client Characteristic Configuration descriptor, if any.
    public var clientCharacteristicConfigurationHandle: UInt16? {
        descriptor(GATTAttributeType.clientCharacteristicConfiguration)?.handle
    }
}

/// A characteristic descriptor of a built database (Core v5.4, Vol 3, Part G, 3.3.3).
public struct GATTDescriptor: Sendable {
    /// The descriptor's handle.
    public let handle: UInt16
    /// The descriptor's attribute type.
    public let type: BluetoothUUID
    /// The descriptor's permissions.
    public let permissions: GATTPermissions
    /// The attribute value (computed by the builder for the typed contents).
    public let value: GATTAttributeValue
    /// What the definition asked for; the builder's own descriptors appear as the typed case.
    public let content: GATTDescriptorContent
}
