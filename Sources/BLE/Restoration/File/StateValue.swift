import BLECore

/// A value of the restoration state file (docs/state-restoration.md): how it is written as JSON
/// and read back, refusing anything it would not have written.
///
/// Each conformance declares its JSON form once, in ``json`` and ``init(json:at:)``; records
/// (``StateRecord``) build on them through ``StateCoder``, so the writer and the reader of the
/// file follow one declaration.
protocol StateValue: Sendable {
    /// The value as JSON.
    var json: JSONValue { get }
    /// The value `json` holds, found at `path` in the file.
    ///
    /// - Throws: ``StateFileFault`` naming `path` when `json` is not what ``json`` writes.
    init(json: JSONValue, at path: JSONPath) throws(StateFileFault)
}

extension String: StateValue {
    /// A JSON string.
    var json: JSONValue { .string(self) }

    init(json: JSONValue, at path: JSONPath) throws(StateFileFault) {
        guard case .string(let text) = json else { throw StateFileFault(path: path, reason: "expected a string") }
        self = text
    }
}

extension Bool: StateValue {
    /// `true` or `false`.
    var json: JSONValue { .bool(self) }

    init(json: JSONValue, at path: JSONPath) throws(StateFileFault) {
        guard case .bool(let value) = json else { throw StateFileFault(path: path, reason: "expected true or false") }
        self = value
    }
}

extension Int: StateValue {
    /// A JSON integer.
    var json: JSONValue { .int(self) }

    init(json: JSONValue, at path: JSONPath) throws(StateFileFault) {
        guard case .int(let value) = json else { throw StateFileFault(path: path, reason: "expected an integer") }
        self = value
    }
}

extension UInt8: StateValue {
    /// An integer 0...255 (a Characteristic Properties octet, permissions).
    var json: JSONValue { .int(Int(self)) }

    init(json: JSONValue, at path: JSONPath) throws(StateFileFault) {
        let value = try Int(json: json, at: path)
        guard let octet = UInt8(exactly: value) else { throw StateFileFault(path: path, reason: "\(value) is outside 0...255") }
        self = octet
    }
}

extension UInt16: StateValue {
    /// An integer 0...65535: an attribute handle.
    var json: JSONValue { .int(Int(self)) }

    init(json: JSONValue, at path: JSONPath) throws(StateFileFault) {
        let value = try Int(json: json, at: path)
        guard let handle = UInt16(exactly: value) else { throw StateFileFault(path: path, reason: "\(value) is outside 0...65535") }
        self = handle
    }
}

extension BluetoothUUID: StateValue {
    /// "180D" for a 16-bit UUID, "0000FEED" for a 32-bit one, else the 128-bit form with dashes.
    var json: JSONValue { .string(description) }

    init(json: JSONValue, at path: JSONPath) throws(StateFileFault) {
        let text = try String(json: json, at: path)
        guard let uuid = BluetoothUUID(text), !text.hasPrefix("0x"), !text.hasPrefix("0X") else {
            throw StateFileFault(path: path, reason: "\"\(text)\" is not a Bluetooth UUID (4, 8 or 32 hexadecimal digits)")
        }
        self = uuid
    }
}

extension BluetoothAddress: StateValue {
    /// "EA:59:24:0E:82:34", most significant octet first.
    var json: JSONValue { .string(description) }

    init(json: JSONValue, at path: JSONPath) throws(StateFileFault) {
        let text = try String(json: json, at: path)
        guard text.utf8.count == 17, let address = BluetoothAddress(text) else {
            throw StateFileFault(path: path, reason: "\"\(text)\" is not an address written AA:BB:CC:DD:EE:FF")
        }
        self = address
    }
}

extension Array: StateValue where Element: StateValue {
    /// A JSON array of the elements.
    var json: JSONValue { .array(map(\.json)) }

    init(json: JSONValue, at path: JSONPath) throws(StateFileFault) {
        guard case .array(let items) = json else { throw StateFileFault(path: path, reason: "expected an array") }
        var values: [Element] = []
        values.reserveCapacity(items.count)
        for (index, item) in items.enumerated() {
            values.append(try Element(json: item, at: JSONPath(path.components + [.index(index)])))
        }
        self = values
    }
}

/// Octets written as lower-case hexadecimal text, two digits an octet, nothing else: a Database
/// Hash, a characteristic value, manufacturer data.
struct HexOctets: StateValue, Hashable {
    /// The octets, in order.
    var octets: [UInt8]

    init(_ octets: [UInt8]) { self.octets = octets }

    /// "1f0a..." ("" for no octets).
    var json: JSONValue { .string(Hex.encode(octets).lowercased()) }

    init(json: JSONValue, at path: JSONPath) throws(StateFileFault) {
        let text = Array(try String(json: json, at: path).utf8)
        guard text.count % 2 == 0 else { throw StateFileFault(path: path, reason: "an odd number of hexadecimal digits") }
        func digit(_ c: UInt8) -> UInt8? {
            switch c {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): return c - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): return c - UInt8(ascii: "a") + 10
            default: return nil
            }
        }
        var octets: [UInt8] = []
        octets.reserveCapacity(text.count / 2)
        var index = 0
        while index < text.count {
            guard let high = digit(text[index]), let low = digit(text[index + 1]) else {
                throw StateFileFault(path: path, reason: "not lower-case hexadecimal at character \(index)")
            }
            octets.append(high << 4 | low)
            index += 2
        }
        self.octets = octets
    }
}
