import BLECore

/// A service of a built ``GATTDatabase`` (Core v5.4, Vol 3, Part G, 3.1): where it lies, what it
/// includes, and its characteristics.
public struct GATTService: Sendable {
    /// The handle of the service declaration.
    public let handle: UInt16
    /// The End Group Handle: the last handle of the service definition.
    public let endGroupHandle: UInt16
    /// The service UUID (16- or 128-bit).
    public let uuid: BluetoothUUID
    /// Whether the service is primary (0x2800) or secondary (0x2801).
    public let isPrimary: Bool
    /// The ``GATTServiceDefinition/id`` it was defined with, if any.
    public let id: String?
    /// The include definitions, in handle order.
    public let includes: [GATTIncludedService]
    /// The characteristics, in handle order.
    public let characteristics: [GATTCharacteristic]

    /// The handles the service spans: declaration through End Group Handle.
    public var handleRange: ClosedRange<UInt16> { handle...endGroupHandle }

    /// The declaration type: «Primary Service» or «Secondary Service».
    public var declarationType: BluetoothUUID {
        isPrimary ? GATTAttributeType.primaryService : GATTAttributeType.secondaryService
    }

    /// The characteristics whose UUID is `uuid`, in handle order.
    public func characteristics(_ uuid: BluetoothUUID) -> [GATTCharacteristic] {
        characteristics.filter { $0.uuid == uuid }
    }
}

/// An include definition of a built database (Core v5.4, Vol 3, Part G, 3.2).
public struct GATTIncludedService: Sendable, Hashable {
    /// The handle of the include declaration.
    public let handle: UInt16
    /// The handle of the included service's declaration.
    public let serviceHandle: UInt16
    /// The included service's End Group Handle.
    public let endGroupHandle: UInt16
    /// The included service's UUID, whatever its width (the declaration value carries it only
    /// when it is 16-bit; see ``declaration``).
    public let uuid: BluetoothUUID

    /// The include declaration's value.
    public var declaration: GATTIncludeDeclaration {
        GATTIncludeDeclaration(includedServiceHandle: serviceHandle, endGroupHandle: endGroupHandle, serviceUUID: uuid)
    }
}
