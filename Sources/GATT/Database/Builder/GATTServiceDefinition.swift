import BLECore

/// A service as the application describes it to ``GATTDatabaseBuilder`` (Core v5.4, Vol 3,
/// Part G, 3.1): its UUID, whether it is primary, the services it includes, its
/// characteristics, and optionally the handles to use.
///
/// Handles left nil are allocated in order: the service declaration at the next free handle
/// after the previous service, then its includes, then each characteristic. Explicit handles may
/// leave gaps; inside a service they must ascend.
public struct GATTServiceDefinition: Sendable {
    /// A name other services use to include this one (``GATTServiceReference/id(_:)``); unique
    /// within a builder. Optional.
    public var id: String?
    /// The service UUID (16- or 128-bit; a 32-bit UUID is stored in 128 bits).
    public var uuid: BluetoothUUID
    /// Whether the service is primary (declared with 0x2800) or secondary (0x2801).
    public var isPrimary: Bool
    /// The handle of the service declaration; nil to allocate it.
    public var handle: UInt16?
    /// The End Group Handle; nil to end the service at its last attribute. It may lie beyond the
    /// last attribute (to reproduce a captured table), never before.
    public var endGroupHandle: UInt16?
    /// The included services, in order (include definitions come right after the service
    /// declaration, 3.1).
    public var includes: [GATTIncludeDefinition]
    /// The characteristics, in order.
    public var characteristics: [GATTCharacteristicDefinition]

    /// A service definition; primary by default, with handles allocated.
    public init(uuid: BluetoothUUID, isPrimary: Bool = true, id: String? = nil, handle: UInt16? = nil,
                endGroupHandle: UInt16? = nil, includes: [GATTIncludeDefinition] = [],
                characteristics: [GATTCharacteristicDefinition] = []) {
        self.id = id
        self.uuid = uuid
        self.isPrimary = isPrimary
        self.handle = handle
        self.endGroupHandle = endGroupHandle
        self.includes = includes
        self.characteristics = characteristics
    }

    /// A primary service.
    public static func primary(_ uuid: BluetoothUUID, id: String? = nil, handle: UInt16? = nil,
                               includes: [GATTIncludeDefinition] = [],
                               characteristics: [GATTCharacteristicDefinition] = []) -> GATTServiceDefinition {
        GATTServiceDefinition(uuid: uuid, isPrimary: true, id: id, handle: handle, includes: includes,
                              characteristics: characteristics)
    }

    /// A secondary service, meant to be included by other services (Part G, 3.1 and 3.2).
    public static func secondary(_ uuid: BluetoothUUID, id: String? = nil, handle: UInt16? = nil,
                                 includes: [GATTIncludeDefinition] = [],
                                 characteristics: [GATTCharacteristicDefinition] = []) -> GATTServiceDefinition {
        GATTServiceDefinition(uuid: uuid, isPrimary: false, id: id, handle: handle, includes: includes,
                              characteristics: characteristics)
    }
}

/// Names a service of the same builder: by its ``GATTServiceDefinition/id`` or by its position
/// in the builder's list (from 0, as ``GATTDatabaseBuilder/addService(_:)`` returns it).
public enum GATTServiceReference: Sendable, Hashable, CustomStringConvertible,
                                  ExpressibleByStringLiteral, ExpressibleByIntegerLiteral {
    /// The service whose ``GATTServiceDefinition/id`` is this text.
    case id(String)
    /// The service at this position in the builder's list, from 0.
    case index(Int)

    /// A reference by id.
    public init(stringLiteral value: String) { self = .id(value) }
    /// A reference by position.
    public init(integerLiteral value: Int) { self = .index(value) }

    /// "\"battery\"" or "services[3]".
    public var description: String {
        switch self {
        case .id(let id): return "\"\(id)\""
        case .index(let i): return "services[\(i)]"
        }
    }
}

/// An include definition (Core v5.4, Vol 3, Part G, 3.2): another service of the same builder,
/// primary or secondary, before or after this one.
public struct GATTIncludeDefinition: Sendable, Hashable {
    /// The included service.
    public var service: GATTServiceReference
    /// The handle of the include declaration; nil to allocate it.
    public var handle: UInt16?

    /// An include of `service`.
    public init(_ service: GATTServiceReference, handle: UInt16? = nil) {
        self.service = service
        self.handle = handle
    }
}
