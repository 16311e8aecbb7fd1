import BLECore

/// What a characteristic descriptor holds (Core v5.4, Vol 3, Part G, 3.3.3): one of the
/// descriptors GATT defines, whose value the database computes or types, or any other kept
/// raw.
///
/// | Case | Type | Value | Default permissions |
/// |---|---|---|---|
/// | ``clientCharacteristicConfiguration`` | 0x2902 | 0x0000; the server keeps one per connection | read, write (3.3.3.3) |
/// | ``serverCharacteristicConfiguration`` | 0x2903 | 0x0000 | read, write (3.3.3.4) |
/// | ``extendedProperties`` | 0x2900 | the characteristic's extended properties | read only (3.3.3.1) |
/// | ``userDescription(_:)`` | 0x2901 | UTF-8 text | read; write when Writable Auxiliaries is set (3.3.3.2) |
/// | ``presentationFormat(_:)`` | 0x2904 | 7 octets | read only (3.3.3.5) |
/// | ``aggregateFormat`` | 0x2905 | the handles of the characteristic's Presentation Format descriptors | read only (3.3.3.6) |
/// | ``other(type:value:)`` | any other | as given | read when readable (fixed, or a read handler), write when a write handler exists |
public enum GATTDescriptorContent: Sendable {
    /// A Client Characteristic Configuration descriptor. The builder adds one to every
    /// characteristic with Notify or Indicate that does not list it.
    case clientCharacteristicConfiguration
    /// A Server Characteristic Configuration descriptor. The builder adds one to every
    /// characteristic with Broadcast that does not list it.
    case serverCharacteristicConfiguration
    /// The Characteristic Extended Properties descriptor. The builder adds one to every
    /// characteristic with extended properties (or the Extended Properties property) that does
    /// not list it.
    case extendedProperties
    /// A Characteristic User Description: the text, UTF-8 encoded without a terminating zero.
    case userDescription(String)
    /// A Characteristic Presentation Format.
    case presentationFormat(GATTPresentationFormat)
    /// A Characteristic Aggregate Format listing the characteristic's Presentation Format
    /// descriptors in order (required when there is more than one, 3.3.3.5).
    case aggregateFormat
    /// Any other descriptor, with its value as given. Its type may not be a declaration (0x2800
    /// to 0x2803) nor 0x2900, 0x2902 or 0x2903, whose values the stack owns; a raw 0x2901, 0x2904
    /// or 0x2905 value is allowed (to reproduce a captured table).
    case other(type: BluetoothUUID, value: GATTAttributeValue)

    /// The attribute type of the descriptor.
    public var type: BluetoothUUID {
        switch self {
        case .clientCharacteristicConfiguration: return GATTAttributeType.clientCharacteristicConfiguration
        case .serverCharacteristicConfiguration: return GATTAttributeType.serverCharacteristicConfiguration
        case .extendedProperties: return GATTAttributeType.characteristicExtendedProperties
        case .userDescription: return GATTAttributeType.characteristicUserDescription
        case .presentationFormat: return GATTAttributeType.characteristicPresentationFormat
        case .aggregateFormat: return GATTAttributeType.characteristicAggregateFormat
        case .other(let type, _): return GATTLayouts.attUUID(type)
        }
    }

    /// The permissions the builder gives this descriptor when its definition gives none, in a
    /// characteristic with `extendedProperties` (see the table above).
    public func defaultPermissions(extendedProperties: GATTCharacteristicExtendedProperties) -> GATTPermissions {
        switch self {
        case .clientCharacteristicConfiguration, .serverCharacteristicConfiguration: return .readWrite
        case .extendedProperties, .presentationFormat, .aggregateFormat: return .readOnly
        case .userDescription:
            return extendedProperties.contains(.writableAuxiliaries) ? .readWrite : .readOnly
        case .other(_, let value):
            switch value {
            case .fixed: return .readOnly
            case .dynamic(let handlers):
                return GATTPermissions(read: handlers.read == nil ? nil : .open,
                                       write: handlers.write == nil ? nil : .open)
            }
        }
    }
}
