import BLECore

/// The value of a service declaration (Core v5.4, Vol 3, Part G, 3.1): the service
/// UUID, the Attribute Value of a «Primary Service» (0x2800) or «Secondary Service» (0x2801)
/// attribute.
///
/// | Service UUID |
/// |---|
/// | 2 octets (16-bit UUID) or 16 octets (128-bit UUID) |
///
/// A 32-bit UUID is written in its 128-bit form (Part F, 3.2.1).
public struct GATTServiceDeclaration: Sendable, Hashable {
    /// The service UUID.
    public var uuid: BluetoothUUID

    /// The declaration of the service `uuid`.
    public init(uuid: BluetoothUUID) { self.uuid = uuid }

    /// Decodes a service declaration value: a 2- or 16-octet UUID.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` for "Service UUID"
    ///   below 2 octets; ``BLEDecodingError/invalidValue(field:offset:reason:)`` for any length
    ///   other than 2 or 16.
    public init(decoding value: some Collection<UInt8>) throws(BLEDecodingError) {
        uuid = try GATTLayouts.decodeWhole(value) { (r: inout ByteReader) throws(BLEDecodingError) in
            try GATTLayouts.readUUID(&r, field: "Service UUID")
        }
    }

    /// Appends the Service UUID.
    public func encode(to w: inout ByteWriter) { GATTLayouts.writeUUID(uuid, to: &w) }

    /// The value octets: 2 or 16.
    public var encoded: [UInt8] {
        var w = ByteWriter(capacity: 16)
        encode(to: &w)
        return w.bytes
    }
}
