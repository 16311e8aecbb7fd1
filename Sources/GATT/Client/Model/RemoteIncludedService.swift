import BLECore

/// An included service of a ``RemoteService``: one «Include» declaration (Core v5.4, Vol 3,
/// Part G, 3.2), found with the Find Included Services procedure (4.5.1).
public struct RemoteIncludedService: Sendable, Hashable, CustomStringConvertible {
    /// The handle of the include declaration itself.
    public var declarationHandle: UInt16
    /// Included Service Attribute Handle: the included service's declaration.
    public var serviceHandle: UInt16
    /// End Group Handle: the included service's last handle.
    public var endHandle: UInt16
    /// The included service's UUID: from the include's value when it is a 16-bit UUID, else
    /// read from the included service's declaration (a 128-bit UUID does not fit the include).
    public var uuid: BluetoothUUID

    /// An include declared at `declarationHandle` of the service `serviceHandle...endHandle`.
    public init(declarationHandle: UInt16, serviceHandle: UInt16, endHandle: UInt16, uuid: BluetoothUUID) {
        self.declarationHandle = declarationHandle
        self.serviceHandle = serviceHandle
        self.endHandle = endHandle
        self.uuid = uuid
    }

    /// The handles of the included service.
    public var handleRange: ClosedRange<UInt16> { serviceHandle...max(serviceHandle, endHandle) }

    /// The included service, to discover its characteristics with
    /// ``GATTClient/discoverCharacteristics(of:)``. Whether it is primary or secondary the
    /// include does not say; it is marked secondary, the usual case (Part G, 2.6.2 and 3.2).
    public var service: RemoteService {
        RemoteService(uuid: uuid, isPrimary: false, handle: serviceHandle, endHandle: endHandle)
    }

    /// "Include 0x0014: service 0x0020...0x0025 1812 (Human Interface Device)".
    public var description: String {
        "Include \(Hex.hex16(declarationHandle)): service "
            + "\(Hex.hex16(serviceHandle))...\(Hex.hex16(endHandle)) \(uuid.descriptionWithName)"
    }
}
