import BLECore

/// A published service: ``MutableService``'s type, kind, includes and characteristics.
struct PublishedServiceEntry: StateRecord, Hashable {
    var uuid = BluetoothUUID(0)
    var primary = true
    /// The services it includes, as positions in ``PeripheralManagerState/services``.
    var includes: [Int] = []
    var characteristics: [PublishedCharacteristicEntry] = []

    mutating func layout<C: StateCoding>(_ coder: inout C) throws(C.Failure) {
        try coder.field(&uuid, "uuid")
        try coder.field(&primary, "primary")
        try coder.field(&includes, "includes")
        try coder.field(&characteristics, "characteristics")
    }
}

/// A published characteristic: ``MutableCharacteristic``'s type, properties, permissions and
/// static value (none for a value the application answers).
struct PublishedCharacteristicEntry: StateRecord, Hashable {
    var uuid = BluetoothUUID(0)
    /// The Characteristic Properties octet (Core v5.4, Vol 3, Part G, 3.3.1.1).
    var properties: UInt8 = 0
    /// ``AttributePermissions``' bits.
    var permissions: UInt8 = 0
    /// The static value, at most 512 octets (Vol 3, Part F, 3.2.9); nil when asked through requests.
    var value: HexOctets?

    mutating func layout<C: StateCoding>(_ coder: inout C) throws(C.Failure) {
        try coder.field(&uuid, "uuid")
        try coder.field(&properties, "properties")
        try coder.field(&permissions, "permissions")
        try coder.field(&value, "value")
    }

    func validate(at path: JSONPath) throws(StateFileFault) {
        if let value, value.octets.count > 512 {
            throw StateFileFault(path: JSONPath(path.components + [.member("value")]), reason: "\(value.octets.count) octets; a value has at most 512")
        }
        if permissions & ~0x0F != 0 {
            throw StateFileFault(path: JSONPath(path.components + [.member("permissions")]), reason: "bits beyond 0x0F are not permissions")
        }
    }
}
