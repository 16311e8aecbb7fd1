import BLECore

/// A discovered service: its declaration's handles and, when discovered, its includes and
/// characteristics (Core v5.4, Vol 3, Part G, 3.1, 4.4 to 4.6).
struct ServiceEntry: StateRecord, Hashable {
    var uuid = BluetoothUUID(0)
    /// Primary (found by service discovery), or secondary (found through an include).
    var primary = true
    /// The service declaration's handle.
    var handle: UInt16 = 0
    /// The End Group Handle.
    var endHandle: UInt16 = 0
    /// The handles of the services it includes; nil when includes were not discovered.
    var includes: [UInt16]?
    /// Its characteristics in handle order; nil when not discovered.
    var characteristics: [CharacteristicEntry]?

    mutating func layout<C: StateCoding>(_ coder: inout C) throws(C.Failure) {
        try coder.field(&uuid, "uuid")
        try coder.field(&primary, "primary")
        try coder.field(&handle, "handle")
        try coder.field(&endHandle, "endHandle")
        try coder.field(&includes, "includes")
        try coder.field(&characteristics, "characteristics")
    }

    func validate(at path: JSONPath) throws(StateFileFault) {
        func at(_ components: JSONPath.Component...) -> JSONPath { JSONPath(path.components + components) }
        guard handle >= 1, handle <= endHandle else {
            throw StateFileFault(path: at(.member("endHandle")), reason: "the range \(Hex.hex16(handle))...\(Hex.hex16(endHandle)) is empty or starts at 0x0000")
        }
        let list = characteristics ?? []
        for (index, characteristic) in list.enumerated() {
            guard characteristic.handle > handle, characteristic.endHandle <= endHandle,
                  index == 0 || characteristic.handle > list[index - 1].endHandle else {
                throw StateFileFault(path: at(.member("characteristics"), .index(index), .member("handle")),
                                     reason: "\(Hex.hex16(characteristic.handle)) is outside the service or before the previous characteristic's end")
            }
        }
    }
}

/// A discovered characteristic: its declaration (Core v5.4, Vol 3, Part G, 3.3.1), its
/// descriptors when discovered, and whether notifications or indications were enabled.
struct CharacteristicEntry: StateRecord, Hashable {
    var uuid = BluetoothUUID(0)
    /// The characteristic declaration's handle.
    var handle: UInt16 = 0
    /// The Characteristic Value Handle.
    var valueHandle: UInt16 = 0
    /// Its last handle.
    var endHandle: UInt16 = 0
    /// The Characteristic Properties octet (3.3.1.1).
    var properties: UInt8 = 0
    /// Its descriptors in handle order; nil when not discovered.
    var descriptors: [DescriptorEntry]?
    /// Whether ``Peripheral/setNotifyValue(_:for:)`` had enabled it: resubscribed on restoration.
    var notifying = false

    mutating func layout<C: StateCoding>(_ coder: inout C) throws(C.Failure) {
        try coder.field(&uuid, "uuid")
        try coder.field(&handle, "handle")
        try coder.field(&valueHandle, "valueHandle")
        try coder.field(&endHandle, "endHandle")
        try coder.field(&properties, "properties")
        try coder.field(&descriptors, "descriptors")
        try coder.field(&notifying, "notifying")
    }

    func validate(at path: JSONPath) throws(StateFileFault) {
        func at(_ components: JSONPath.Component...) -> JSONPath { JSONPath(path.components + components) }
        guard handle < valueHandle, valueHandle <= endHandle else {
            throw StateFileFault(path: at(.member("valueHandle")),
                                 reason: "\(Hex.hex16(valueHandle)) is not after the declaration \(Hex.hex16(handle)) and within its end \(Hex.hex16(endHandle))")
        }
        let list = descriptors ?? []
        for (index, descriptor) in list.enumerated() {
            guard descriptor.handle > valueHandle, descriptor.handle <= endHandle, index == 0 || descriptor.handle > list[index - 1].handle else {
                throw StateFileFault(path: at(.member("descriptors"), .index(index), .member("handle")),
                                     reason: "\(Hex.hex16(descriptor.handle)) is outside \(Hex.hex16(valueHandle &+ 1))...\(Hex.hex16(endHandle)) or out of order")
            }
        }
        if notifying, properties & (CharacteristicProperties.notify.rawValue | CharacteristicProperties.indicate.rawValue) == 0 {
            throw StateFileFault(path: at(.member("notifying")), reason: "the characteristic has neither Notify nor Indicate")
        }
    }
}

/// A discovered descriptor (Core v5.4, Vol 3, Part G, 3.3.3).
struct DescriptorEntry: StateRecord, Hashable {
    var handle: UInt16 = 0
    var uuid = BluetoothUUID(0)

    mutating func layout<C: StateCoding>(_ coder: inout C) throws(C.Failure) {
        try coder.field(&handle, "handle")
        try coder.field(&uuid, "uuid")
    }
}
