import BLECore

/// The value of a Characteristic Presentation Format descriptor (Core v5.4, Vol 3, Part G,
/// 3.3.3.5): how to read the characteristic value.
///
/// | Format | Exponent | Unit | Name Space | Description |
/// |---|---|---|---|---|
/// | 1 octet (``GATTFormat``) | 1 octet, signed | 2 octets, a unit UUID | 1 octet | 2 octets |
///
/// The value is 7 octets. An integer characteristic value means `value * 10^exponent` in the
/// unit (3.3.3.5.3). Name Space 0x01 is the Bluetooth SIG Assigned Numbers, whose Description
/// values ("first", "left", ...) live in Assigned Numbers, 2.4.2.
public struct GATTPresentationFormat: Sendable, Hashable {
    /// Format: the type of the characteristic value.
    public var format: GATTFormat
    /// Exponent: the base-10 exponent applied to an integer value.
    public var exponent: Int8
    /// Unit: the 16-bit unit UUID, for example 0x27AD (percentage) or 0x2700 (unitless).
    public var unit: UInt16
    /// Name Space: the organisation that defines ``description``; 0x01 for the Bluetooth SIG.
    public var namespace: UInt8
    /// Description: a value in ``namespace``, for example 0x0000 "unknown".
    public var description: UInt16

    /// The Name Space value of the Bluetooth SIG Assigned Numbers.
    public static let bluetoothSIGNamespace: UInt8 = 0x01

    /// A presentation format; by default exponent 0, unitless, Bluetooth SIG name space,
    /// description 0x0000 ("unknown").
    public init(format: GATTFormat, exponent: Int8 = 0, unit: UInt16 = 0x2700,
                namespace: UInt8 = GATTPresentationFormat.bluetoothSIGNamespace, description: UInt16 = 0) {
        self.format = format
        self.exponent = exponent
        self.unit = unit
        self.namespace = namespace
        self.description = description
    }

    /// ``unit`` as a UUID, for its name: `BluetoothUUID(0x27AD).name` is "percentage".
    public var unitUUID: BluetoothUUID { BluetoothUUID(unit) }

    /// The value length: 7 octets.
    public static let length = 7

    /// Decodes the 7-octet value.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` naming the short
    ///   field ("Format", "Exponent", "Unit", "Name Space", "Description");
    ///   ``BLEDecodingError/unexpectedTrailingOctets(offset:count:)`` after 7 octets.
    public init(decoding value: some Collection<UInt8>) throws(BLEDecodingError) {
        self = try GATTLayouts.decodeWhole(value) { (r: inout ByteReader) throws(BLEDecodingError) in
            let format = GATTFormat(rawValue: try r.readUInt8("Format"))
            let exponent = Int8(bitPattern: try r.readUInt8("Exponent"))
            let unit = try r.readUInt16("Unit")
            let namespace = try r.readUInt8("Name Space")
            let description = try r.readUInt16("Description")
            return GATTPresentationFormat(format: format, exponent: exponent, unit: unit,
                                          namespace: namespace, description: description)
        }
    }

    /// Appends the fields in the order of the table above.
    public func encode(to w: inout ByteWriter) {
        w.writeUInt8(format.rawValue)
        w.writeUInt8(UInt8(bitPattern: exponent))
        w.writeUInt16(unit)
        w.writeUInt8(namespace)
        w.writeUInt16(description)
    }

    /// The 7 value octets.
    public var encoded: [UInt8] {
        var w = ByteWriter(capacity: Self.length)
        encode(to: &w)
        return w.bytes
    }
}

/// The value of a Characteristic Aggregate Format descriptor (Core v5.4, Vol 3, Part G,
/// 3.3.3.6): the handles of the characteristic's Presentation Format descriptors,
/// in the order their formats apply to the parts of an aggregated value.
///
/// | List of Attribute Handles |
/// |---|
/// | 2 octets per handle |
public struct GATTAggregateFormat: Sendable, Hashable {
    /// The Presentation Format descriptor handles, in order.
    public var handles: [UInt16]

    /// An aggregate of the formats at `handles`.
    public init(handles: [UInt16]) { self.handles = handles }

    /// Decodes a list of handles.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` for an odd
    ///   length (the last "Attribute Handle" is short).
    public init(decoding value: some Collection<UInt8>) throws(BLEDecodingError) {
        handles = try GATTLayouts.decodeWhole(value) { (r: inout ByteReader) throws(BLEDecodingError) in
            var handles: [UInt16] = []
            handles.reserveCapacity(r.remainingCount / 2)
            while !r.isAtEnd { handles.append(try r.readUInt16("Attribute Handle")) }
            return handles
        }
    }

    /// Appends each handle.
    public func encode(to w: inout ByteWriter) { for h in handles { w.writeUInt16(h) } }

    /// The value octets: 2 per handle.
    public var encoded: [UInt8] {
        var w = ByteWriter(capacity: 2 * handles.count)
        encode(to: &w)
        return w.bytes
    }
}
