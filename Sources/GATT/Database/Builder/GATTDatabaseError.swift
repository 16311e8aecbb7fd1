import BLECore

/// Why ``GATTDatabaseBuilder`` could not build a database. Each case names the definition at
/// fault by its path in the builder's service list, in the terms of the JSON format
/// (docs/gatt-database-json.md), for example `services[2].characteristics[0].valueHandle`; a
/// descriptor the builder added itself is named like
/// `services[2].characteristics[0].(automatic Client Characteristic Configuration)`.
public enum GATTDatabaseError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A handle of 0x0000, which is reserved (Core v5.4, Vol 3, Part F, 3.2.2).
    case reservedHandle(path: String)
    /// Allocating a handle for `path` would pass 0xFFFF, the last handle (Part F, 3.2.2).
    case handlesExhausted(path: String)
    /// Inside a service, the handle at `path` does not ascend: it is at or below `previous`,
    /// the handle of the attribute before it (the attributes of a service definition follow one
    /// another in handle order, Part G, 3.1-3.3).
    case handleOutOfOrder(path: String, handle: UInt16, previous: UInt16)
    /// Two attributes share `handle` (handles are unique on a server, Part F, 3.2.2).
    case duplicateHandle(handle: UInt16, path: String, otherPath: String)
    /// The handle ranges of two services overlap without sharing a handle: one service would
    /// end inside the other (a service definition ends before the next service declaration,
    /// Part G, 3.1).
    case overlappingServices(path: String, otherPath: String)
    /// An explicit End Group Handle below the service's last attribute handle.
    case endGroupHandleTooLow(path: String, endGroupHandle: UInt16, lastHandle: UInt16)
    /// Two services with the same ``GATTServiceDefinition/id``.
    case duplicateServiceID(id: String, path: String)
    /// An include names a service the builder does not have.
    case includedServiceNotFound(reference: GATTServiceReference, path: String)
    /// Services include each other in a circle, forbidden by Part G, 3.2 ("circular
    /// reference"); `cycle` lists the service paths, the first repeated at the end.
    case circularInclude(cycle: [String])
    /// A value longer than 512 octets, the maximum length of an attribute value (Part F, 3.2.9).
    case valueTooLong(path: String, length: Int)
    /// A raw descriptor whose type the stack owns: a declaration (0x2800-0x2803), or 0x2900,
    /// 0x2902 or 0x2903, whose values follow from the characteristic or the connection. Use the
    /// typed ``GATTDescriptorContent`` case instead.
    case reservedDescriptorType(type: BluetoothUUID, path: String)
    /// A second descriptor of a type a characteristic may have only once: 0x2900 (3.3.3.1),
    /// 0x2901 (3.3.3.2), 0x2902 (3.3.3.3), 0x2903 (3.3.3.4) or 0x2905 (3.3.3.6).
    case duplicateDescriptor(type: BluetoothUUID, path: String)
    /// A characteristic with more than one Presentation Format descriptor and no Aggregate
    /// Format descriptor, which 3.3.3.5 then requires.
    case missingAggregateFormat(path: String)
    /// Permissions the specification does not allow for this attribute (for example a CCCD
    /// that cannot be written, 3.3.3.3), or a minimum key size outside 7...16.
    case invalidPermissions(path: String, reason: String)
    /// A dynamic value whose permissions permit `access` ("read" or "write") without a handler
    /// for it.
    case missingHandler(path: String, access: String)
    /// libcrypto could not compute the Database Hash (AES-CMAC, Part G, 7.3.1).
    case hashUnavailable

    /// The fault in one line, starting with the definition's path:
    /// "services[1].handle: handle 0x0002 is already used by services[0].handle".
    public var description: String {
        switch self {
        case let .reservedHandle(path):
            return "\(path): handle 0x0000 is reserved"
        case let .handlesExhausted(path):
            return "\(path): no handle left after 0xffff"
        case let .handleOutOfOrder(path, handle, previous):
            return "\(path): handle \(Self.hex(handle)) does not follow \(Self.hex(previous)); handles ascend inside a service"
        case let .duplicateHandle(handle, path, otherPath):
            return "\(path): handle \(Self.hex(handle)) is already used by \(otherPath)"
        case let .overlappingServices(path, otherPath):
            return "\(path): its handle range overlaps \(otherPath)"
        case let .endGroupHandleTooLow(path, end, last):
            return "\(path): End Group Handle \(Self.hex(end)) is below the service's last handle \(Self.hex(last))"
        case let .duplicateServiceID(id, path):
            return "\(path): service id \"\(id)\" is already used"
        case let .includedServiceNotFound(reference, path):
            return "\(path): no service \(reference) to include"
        case let .circularInclude(cycle):
            return "circular include: " + cycle.joined(separator: " -> ")
        case let .valueTooLong(path, length):
            return "\(path): \(length) octets; an attribute value holds at most 512"
        case let .reservedDescriptorType(type, path):
            return "\(path): a raw descriptor cannot have type \(type.descriptionWithName)"
        case let .duplicateDescriptor(type, path):
            return "\(path): a second \(type.descriptionWithName) descriptor; a characteristic has at most one"
        case let .missingAggregateFormat(path):
            return "\(path): several Presentation Format descriptors need an Aggregate Format descriptor"
        case let .invalidPermissions(path, reason):
            return "\(path): \(reason)"
        case let .missingHandler(path, access):
            return "\(path): the permissions allow \(access) but the value has no \(access) handler"
        case .hashUnavailable:
            return "libcrypto could not compute the Database Hash"
        }
    }

    static func hex(_ handle: UInt16) -> String { "0x" + String(handle, radix: 16).leftPadded(to: 4) }
}
