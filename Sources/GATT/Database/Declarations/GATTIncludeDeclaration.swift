import BLECore

/// The value of an include declaration (Core v5.4, Vol 3, Part G, 3.2), the Attribute
/// Value of an «Include» (0x2802) attribute.
///
/// | Included Service Attribute Handle | End Group Handle | Service UUID |
/// |---|---|---|
/// | 2 octets | 2 octets | 2 octets, only when the service UUID is 16-bit |
///
/// "The Service UUID shall only be present when the UUID is a 16-bit Bluetooth UUID": for a
/// 128-bit service the value is 4 octets, and a client reads the included service's
/// declaration to learn its UUID (4.5.1).
public struct GATTIncludeDeclaration: Sendable, Hashable {
    /// Included Service Attribute Handle: the handle of the included service's declaration.
    public var includedServiceHandle: UInt16
    /// End Group Handle: the last handle of the included service.
    public var endGroupHandle: UInt16
    /// Service UUID: the included service's 16-bit UUID; nil when it is a 128-bit UUID.
    public var serviceUUID: BluetoothUUID?

    /// An include of the service at `includedServiceHandle...endGroupHandle`. `serviceUUID` is
    /// kept only when it is a 16-bit UUID, as the value carries it (a 32- or 128-bit UUID is
    /// dropped).
    public init(includedServiceHandle: UInt16, endGroupHandle: UInt16, serviceUUID: BluetoothUUID?) {
        self.includedServiceHandle = includedServiceHandle
        self.endGroupHandle = endGroupHandle
        self.serviceUUID = serviceUUID?.width == .bits16 ? serviceUUID : nil
    }

    /// Decodes an include declaration value: 6 octets (with a 16-bit Service UUID) or 4 (without).
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` naming the short
    ///   field ("Included Service Attribute Handle", "End Group Handle", or "Service UUID" for a
    ///   5-octet value); ``BLEDecodingError/unexpectedTrailingOctets(offset:count:)`` after 6.
    public init(decoding value: some Collection<UInt8>) throws(BLEDecodingError) {
        self = try GATTLayouts.decodeWhole(value) { (r: inout ByteReader) throws(BLEDecodingError) in
            let handle = try r.readUInt16("Included Service Attribute Handle")
            let end = try r.readUInt16("End Group Handle")
            let uuid: BluetoothUUID? = r.isAtEnd ? nil : BluetoothUUID(try r.readUInt16("Service UUID"))
            return GATTIncludeDeclaration(includedServiceHandle: handle, endGroupHandle: end, serviceUUID: uuid)
        }
    }

    /// Appends the fields in the order of the table above.
    public func encode(to w: inout ByteWriter) {
        w.writeUInt16(includedServiceHandle)
        w.writeUInt16(endGroupHandle)
        if let serviceUUID { serviceUUID.write(to: &w) }
    }

    /// The value octets: 6 or 4.
    public var encoded: [UInt8] {
        var w = ByteWriter(capacity: 6)
        encode(to: &w)
        return w.bytes
    }
}
