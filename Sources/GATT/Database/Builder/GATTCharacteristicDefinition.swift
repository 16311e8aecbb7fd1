import BLECore

/// A characteristic as the application describes it to ``GATTDatabaseBuilder`` (Core v5.4,
/// Vol 3, Part G, 3.3): its UUID, properties, value, permissions, descriptors and optionally its
/// handles.
///
/// The builder lays it out as the declaration, the value at the next handle, then the
/// descriptors in the order given, then the ones the specification requires and the list lacks,
/// in this order: Client Characteristic Configuration (Notify or Indicate, 3.3.3.3), Server
/// Characteristic Configuration (Broadcast, 3.3.3.4), Characteristic Extended Properties
/// (3.3.3.1). That is the order of the specification's own example (Part G, Appendix B). List a
/// descriptor yourself to place it, or to give it a handle.
public struct GATTCharacteristicDefinition: Sendable {
    /// The characteristic UUID, the type of the value attribute.
    public var uuid: BluetoothUUID
    /// The Characteristic Properties. The builder adds ``GATTCharacteristicProperties/extendedProperties``
    /// when ``extendedProperties`` is not empty or a Characteristic Extended Properties descriptor
    /// is listed.
    public var properties: GATTCharacteristicProperties
    /// The Characteristic Extended Properties (reliable write, writable auxiliaries).
    public var extendedProperties: GATTCharacteristicExtendedProperties
    /// The permissions of the value attribute; nil for ``defaultPermissions``.
    public var permissions: GATTPermissions?
    /// The value: fixed octets (at most 512) or dynamic handlers.
    public var value: GATTAttributeValue
    /// The handle of the characteristic declaration; nil to allocate it (the value handle minus
    /// one when only ``valueHandle`` is given).
    public var handle: UInt16?
    /// The handle of the value attribute; nil for the declaration's handle plus one.
    public var valueHandle: UInt16?
    /// The descriptors, in order.
    public var descriptors: [GATTDescriptorDefinition]

    /// A characteristic definition; by default with no extended properties, permissions from the
    /// properties, an empty fixed value, handles allocated and no listed descriptor.
    public init(uuid: BluetoothUUID, properties: GATTCharacteristicProperties,
                extendedProperties: GATTCharacteristicExtendedProperties = [],
                permissions: GATTPermissions? = nil, value: GATTAttributeValue = .fixed([]),
                handle: UInt16? = nil, valueHandle: UInt16? = nil, descriptors: [GATTDescriptorDefinition] = []) {
        self.uuid = uuid
        self.properties = properties
        self.extendedProperties = extendedProperties
        self.permissions = permissions
        self.value = value
        self.handle = handle
        self.valueHandle = valueHandle
        self.descriptors = descriptors
    }

    /// The value permissions the properties imply: read permitted (open) with Read; write
    /// permitted (open) with Write, Write Without Response, Authenticated Signed Writes or the
    /// Reliable Write extended property.
    public var defaultPermissions: GATTPermissions {
        let writes: GATTCharacteristicProperties = [.write, .writeWithoutResponse, .authenticatedSignedWrites]
        let writable = !properties.isDisjoint(with: writes) || extendedProperties.contains(.reliableWrite)
        return GATTPermissions(read: properties.contains(.read) ? .open : nil, write: writable ? .open : nil)
    }
}

/// A descriptor as the application lists it in a ``GATTCharacteristicDefinition``.
public struct GATTDescriptorDefinition: Sendable {
    /// What the descriptor holds.
    public var content: GATTDescriptorContent
    /// The permissions; nil for the content's default
    /// (``GATTDescriptorContent/defaultPermissions(extendedProperties:)``).
    public var permissions: GATTPermissions?
    /// The handle; nil to allocate it.
    public var handle: UInt16?

    /// A descriptor definition.
    public init(_ content: GATTDescriptorContent, permissions: GATTPermissions? = nil, handle: UInt16? = nil) {
        self.content = content
        self.permissions = permissions
        self.handle = handle
    }

    /// A Client Characteristic Configuration descriptor, listed to place it or give it a handle.
    public static func clientCharacteristicConfiguration(handle: UInt16? = nil,
                                                         permissions: GATTPermissions? = nil) -> GATTDescriptorDefinition {
        GATTDescriptorDefinition(.clientCharacteristicConfiguration, permissions: permissions, handle: handle)
    }

    /// A Characteristic User Description with `text`.
    public static func userDescription(_ text: String, handle: UInt16? = nil,
                                       permissions: GATTPermissions? = nil) -> GATTDescriptorDefinition {
        GATTDescriptorDefinition(.userDescription(text), permissions: permissions, handle: handle)
    }

    /// A Characteristic Presentation Format.
    public static func presentationFormat(_ format: GATTPresentationFormat, handle: UInt16? = nil) -> GATTDescriptorDefinition {
        GATTDescriptorDefinition(.presentationFormat(format), handle: handle)
    }

    /// Any other descriptor, kept raw.
    public static func other(_ type: BluetoothUUID, value: GATTAttributeValue, permissions: GATTPermissions? = nil,
                             handle: UInt16? = nil) -> GATTDescriptorDefinition {
        GATTDescriptorDefinition(.other(type: type, value: value), permissions: permissions, handle: handle)
    }
}
