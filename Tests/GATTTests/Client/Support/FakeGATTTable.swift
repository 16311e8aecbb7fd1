import BLECore
@testable import ATT

/// One attribute of a ``FakeGATTServer``: handle, type and value, nothing more (no permissions:
/// a test that wants an error injects it).
struct FakeAttribute: Sendable, Hashable {
    var handle: UInt16
    var type: BluetoothUUID
    var value: [UInt8]
}

/// Builds a fake server's attribute table in handle order, the way a GATT server lays one out
/// (Core v5.4, Vol 3, Part G, 3): service declaration, includes, then per characteristic its
/// declaration, value and descriptors. Handles are allocated from 0x0001, or moved on with
/// ``skip(to:)`` to leave gaps.
struct FakeGATTTable: Sendable {
    private(set) var attributes: [FakeAttribute] = []
    private(set) var nextHandle: UInt16 = 0x0001

    /// Leaves a gap: the next attribute gets `handle`.
    mutating func skip(to handle: UInt16) { nextHandle = handle }

    /// Appends an attribute and returns its handle.
    @discardableResult
    mutating func add(_ type: BluetoothUUID, _ value: [UInt8]) -> UInt16 {
        let handle = nextHandle
        attributes.append(FakeAttribute(handle: handle, type: type, value: value))
        nextHandle = handle &+ 1
        return handle
    }

    /// A «Primary Service» declaration for `uuid` (2 or 16 octets of value).
    @discardableResult
    mutating func primaryService(_ uuid: BluetoothUUID) -> UInt16 {
        add(BluetoothUUID(0x2800), uuid.littleEndianOctets)
    }

    /// A «Secondary Service» declaration for `uuid`.
    @discardableResult
    mutating func secondaryService(_ uuid: BluetoothUUID) -> UInt16 {
        add(BluetoothUUID(0x2801), uuid.littleEndianOctets)
    }

    /// An «Include» of the service `serviceHandle...endHandle`: the UUID is in the value only
    /// when it is 16-bit (Part G, 3.2).
    @discardableResult
    mutating func include(serviceHandle: UInt16, endHandle: UInt16, uuid: BluetoothUUID) -> UInt16 {
        var w = ByteWriter()
        w.writeUInt16(serviceHandle)
        w.writeUInt16(endHandle)
        if uuid.width == .bits16, let short = uuid.uuid16 { w.writeUInt16(short) }
        return add(BluetoothUUID(0x2802), w.bytes)
    }

    /// A characteristic declaration followed by its value.
    ///
    /// - Returns: the declaration's and the value's handles.
    @discardableResult
    mutating func characteristic(_ uuid: BluetoothUUID, properties: UInt8, value: [UInt8] = [])
        -> (declaration: UInt16, value: UInt16)
    {
        let declaration = nextHandle
        var w = ByteWriter()
        w.writeUInt8(properties)
        w.writeUInt16(declaration &+ 1)
        uuid.write(to: &w)
        add(BluetoothUUID(0x2803), w.bytes)
        let valueHandle = add(uuid, value)
        return (declaration, valueHandle)
    }

    /// A Client Characteristic Configuration descriptor, value 0x0000.
    @discardableResult
    mutating func cccd() -> UInt16 { add(BluetoothUUID(0x2902), [0x00, 0x00]) }

    /// Any descriptor.
    @discardableResult
    mutating func descriptor(_ uuid: BluetoothUUID, _ value: [UInt8] = []) -> UInt16 { add(uuid, value) }

    /// The Generic Attribute service with Service Changed (and its CCCD), Client Supported
    /// Features and Database Hash (Part G, 7).
    ///
    /// - Returns: the handles a test needs.
    @discardableResult
    mutating func genericAttributeService(hash: [UInt8]) -> (serviceChanged: UInt16, serviceChangedCCCD: UInt16,
                                                              clientFeatures: UInt16, databaseHash: UInt16) {
        primaryService(BluetoothUUID(0x1801))
        let changed = characteristic(BluetoothUUID(0x2A05), properties: 0x20, value: [0x00, 0x00, 0x00, 0x00]).value
        let changedCCCD = cccd()
        let features = characteristic(BluetoothUUID(0x2B29), properties: 0x0A, value: [0x00]).value
        let hashHandle = characteristic(BluetoothUUID(0x2B2A), properties: 0x02, value: hash).value
        return (changed, changedCCCD, features, hashHandle)
    }

    /// The handle where the attribute `type` with `value` is.
    func handle(of type: BluetoothUUID, value: [UInt8]? = nil) -> UInt16? {
        attributes.first { $0.type == type && (value == nil || $0.value == value) }?.handle
    }
}
