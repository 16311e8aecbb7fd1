import ATT
import BLECore

/// The values of GATT's declarations and of the GATT service's characteristics, as a client
/// reads them from a server's responses. Each parser checks the value's length and throws
/// ``GATTClientError/ProtocolViolation/malformedValue(handle:_:)`` naming the field and its offset
/// within the value; it never traps on a peer's octets.
enum RemoteDeclarations {
    /// A service declaration's value (Core v5.4, Vol 3, Part G, 3.1, Table 3.1): the service
    /// UUID, 2 or 16 octets (a 32-bit UUID is sent as 128 bits on ATT, Part F, 3.2.1).
    static func serviceUUID(_ value: [UInt8], handle: UInt16) throws(GATTClientError) -> BluetoothUUID {
        try parse(value, handle: handle) { (r: inout ByteReader) throws(BLEDecodingError) in
            try readUUID(&r, field: "Service UUID")
        }
    }

    /// An include declaration's value (Part G, 3.2, Table 3.2): Included Service Attribute
    /// Handle (2), End Group Handle (2), then the Service UUID (2) only when it is a 16-bit UUID.
    ///
    /// - Returns: the two handles, and the UUID when the value carries one.
    /// - Throws: a malformed value when the Included Service Attribute Handle is 0x0000 or the
    ///   End Group Handle lies below it.
    static func include(_ value: [UInt8], handle: UInt16) throws(GATTClientError)
        -> (serviceHandle: UInt16, endHandle: UInt16, uuid: BluetoothUUID?)
    {
        try parse(value, handle: handle) { (r: inout ByteReader) throws(BLEDecodingError) in
            let service = try r.readUInt16("Included Service Attribute Handle")
            // Handle 0x0000 is reserved (Part F, 3.2.2): no service declaration can have it.
            guard service != 0x0000 else {
                throw .invalidValue(field: "Included Service Attribute Handle", offset: 0, reason: "0x0000 is reserved")
            }
            let end = try r.readUInt16("End Group Handle")
            // The included service's group ends at or after its declaration (Part G, 3.2, Table 3.2).
            guard end >= service else {
                throw .invalidValue(field: "End Group Handle", offset: 2,
                                    reason: "\(Hex.hex16(end)) is below the included service \(Hex.hex16(service))")
            }
            if r.isAtEnd { return (service, end, nil) }
            return (service, end, BluetoothUUID(try r.readUInt16("Service UUID")))
        }
    }

    /// A characteristic declaration's value (Part G, 3.3.1, Table 3.4): Characteristic
    /// Properties (1), Characteristic Value Handle (2), Characteristic UUID (2 or 16).
    static func characteristic(_ value: [UInt8], handle: UInt16) throws(GATTClientError)
        -> (properties: RemoteCharacteristic.Properties, valueHandle: UInt16, uuid: BluetoothUUID)
    {
        try parse(value, handle: handle) { (r: inout ByteReader) throws(BLEDecodingError) in
            let properties = RemoteCharacteristic.Properties(rawValue: try r.readUInt8("Characteristic Properties"))
            let valueHandle = try r.readUInt16("Characteristic Value Handle")
            return (properties, valueHandle, try readUUID(&r, field: "Characteristic UUID"))
        }
    }

    /// The Service Changed characteristic's value (Part G, 7.1): Start of Affected Attribute
    /// Handle Range (2), End of Affected Attribute Handle Range (2). A reversed range is
    /// malformed.
    static func serviceChangedRange(_ value: [UInt8], handle: UInt16) throws(GATTClientError) -> ClosedRange<UInt16> {
        try parse(value, handle: handle) { (r: inout ByteReader) throws(BLEDecodingError) in
            let start = try r.readUInt16("Start of Affected Attribute Handle Range")
            let endOffset = r.offset
            let end = try r.readUInt16("End of Affected Attribute Handle Range")
            guard start <= end else {
                throw .invalidValue(field: "End of Affected Attribute Handle Range", offset: endOffset,
                                    reason: "\(Hex.hex16(end)) is below the start \(Hex.hex16(start))")
            }
            return start...end
        }
    }

    /// The Database Hash characteristic's value (Part G, 7.3): 16 octets, compared as sent.
    static func databaseHash(_ value: [UInt8], handle: UInt16) throws(GATTClientError) -> [UInt8] {
        try parse(value, handle: handle) { (r: inout ByteReader) throws(BLEDecodingError) in
            try r.readBytes(16, "Database Hash")
        }
    }

    /// Reads a 16-bit or 128-bit UUID filling the rest of the value.
    private static func readUUID(_ r: inout ByteReader, field: String) throws(BLEDecodingError) -> BluetoothUUID {
        switch r.remainingCount {
        case 2: return try BluetoothUUID(from: &r, width: .bits16, field: field)
        case 16: return try BluetoothUUID(from: &r, width: .bits128, field: field)
        default:
            throw .invalidValue(field: field, offset: r.offset,
                                reason: "\(r.remainingCount) octets; a UUID here has 2 or 16")
        }
    }

    /// Runs `body` over `value`, requires it to consume every octet, and wraps a decoding
    /// error with the attribute's handle.
    private static func parse<T>(_ value: [UInt8], handle: UInt16,
                                 _ body: (inout ByteReader) throws(BLEDecodingError) -> T) throws(GATTClientError) -> T {
        var reader = ByteReader(value)
        do throws(BLEDecodingError) {
            let result = try body(&reader)
            try reader.expectEnd()
            return result
        } catch {
            throw .protocolViolation(.malformedValue(handle: handle, error))
        }
    }
}
