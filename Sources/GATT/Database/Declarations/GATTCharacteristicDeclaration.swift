import BLECore

/// The value of a characteristic declaration (Core v5.4, Vol 3, Part G, 3.3.1), the
/// Attribute Value of a «Characteristic» (0x2803) attribute.
///
/// | Characteristic Properties | Characteristic Value Attribute Handle | Characteristic UUID |
/// |---|---|---|
/// | 1 octet (``GATTCharacteristicProperties``) | 2 octets | 2 or 16 octets |
///
/// The characteristic value attribute immediately follows the declaration (3.3.2). A 32-bit
/// UUID is written in its 128-bit form (Part F, 3.2.1).
public struct GATTCharacteristicDeclaration: Sendable, Hashable {
    /// Characteristic Properties.
    public var properties: GATTCharacteristicProperties
    /// Characteristic Value Attribute Handle.
    public var valueHandle: UInt16
    /// Characteristic UUID: the type of the characteristic value attribute.
    public var uuid: BluetoothUUID

    /// A declaration of the characteristic `uuid` whose value is at `valueHandle`.
    public init(properties: GATTCharacteristicProperties, valueHandle: UInt16, uuid: BluetoothUUID) {
        self.properties = properties
        self.valueHandle = valueHandle
        self.uuid = uuid
    }

    /// Decodes a characteristic declaration value: 5 octets (16-bit UUID) or 19 (128-bit).
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` naming the short
    ///   field; ``BLEDecodingError/invalidValue(field:offset:reason:)`` for a "Characteristic
    ///   UUID" that is neither 2 nor 16 octets.
    public init(decoding value: some Collection<UInt8>) throws(BLEDecodingError) {
        self = try GATTLayouts.decodeWhole(value) { (r: inout ByteReader) throws(BLEDecodingError) in
            let properties = GATTCharacteristicProperties(rawValue: try r.readUInt8("Characteristic Properties"))
            let handle = try r.readUInt16("Characteristic Value Attribute Handle")
            let uuid = try GATTLayouts.readUUID(&r, field: "Characteristic UUID")
            return GATTCharacteristicDeclaration(properties: properties, valueHandle: handle, uuid: uuid)
        }
    }

    /// Appends the fields in the order of the table above.
    public func encode(to w: inout ByteWriter) {
        w.writeUInt8(properties.rawValue)
        w.writeUInt16(valueHandle)
        GATTLayouts.writeUUID(uuid, to: &w)
    }

    /// The value octets: 5 or 19.
    public var encoded: [UInt8] {
        var w = ByteWriter(capacity: 19)
        encode(to: &w)
        return w.bytes
    }
}
