import BLE
import BLECore

/// What `read` and `write` name on the peer: a handle ("0x0003": a characteristic's value
/// handle or a descriptor's handle, as `blectl gatt` prints them) or a characteristic UUID
/// ("2A19", 128-bit forms).
enum AttributeTarget: CustomStringConvertible {
    case handle(UInt16)
    case uuid(BluetoothUUID)

    /// What one of the two resolves to in a discovered database.
    enum Attribute {
        case characteristic(Characteristic)
        case descriptor(Descriptor)

        /// The handle a read or write of it carries.
        var handle: UInt16 {
            switch self {
            case .characteristic(let characteristic): return characteristic.valueHandle
            case .descriptor(let descriptor): return descriptor.handle
            }
        }
    }

    /// Reads a target.
    ///
    /// - Throws: ``KernelContext/Failure`` saying what the two forms are.
    init(_ text: String) throws(KernelContext.Failure) {
        if text.lowercased().hasPrefix("0x") {
            guard let value = UInt16(text.dropFirst(2), radix: 16), value != 0 else {
                throw KernelContext.Failure("'\(text)' is not a handle (0x0001...0xFFFF)")
            }
            self = .handle(value)
        } else if let uuid = BluetoothUUID(text) {
            self = .uuid(uuid)
        } else {
            throw KernelContext.Failure("'\(text)' is neither a handle (0x0003) nor a UUID (2A19)")
        }
    }

    var description: String {
        switch self {
        case .handle(let handle): return Hex.hex16(handle)
        case .uuid(let uuid): return uuid.descriptionWithName
        }
    }

    /// The attribute this target names among `services` (a whole discovered database): the
    /// first characteristic with the UUID, or the characteristic value or descriptor at the handle.
    ///
    /// - Throws: ``KernelContext/Failure`` when the peer has none.
    func find(in services: [Service]) throws(KernelContext.Failure) -> Attribute {
        let characteristics = services.flatMap { $0.characteristics ?? [] }
        switch self {
        case .uuid(let uuid):
            guard let found = characteristics.first(where: { $0.uuid == uuid }) else {
                throw KernelContext.Failure("the peer has no characteristic \(uuid.descriptionWithName)")
            }
            return .characteristic(found)
        case .handle(let handle):
            if let found = characteristics.first(where: { $0.valueHandle == handle }) { return .characteristic(found) }
            if let found = characteristics.flatMap({ $0.descriptors ?? [] }).first(where: { $0.handle == handle }) {
                return .descriptor(found)
            }
            throw KernelContext.Failure("the peer has no characteristic value or descriptor at \(Hex.hex16(handle)) (blectl gatt lists them)")
        }
    }
}
