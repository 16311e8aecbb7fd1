import BLECore
import CCrypto

/// The Database Hash (Core v5.4, Vol 3, Part G, 7.3.1): AES-CMAC with a key of 128 zero bits over
/// the concatenation, in ascending handle order, of the attributes that shape the database.
///
/// | Attribute type | Octets in the message |
/// |---|---|
/// | «Primary Service», «Secondary Service», «Include», «Characteristic», «Characteristic Extended Properties» | handle, type, value |
/// | «Characteristic User Description», «Client Characteristic Configuration», «Server Characteristic Configuration», «Characteristic Presentation Format», «Characteristic Aggregate Format» | handle, type |
/// | any other | none |
///
/// Each field is little-endian: the handle in 2 octets, the type in 2 (16-bit UUID) or 16
/// (128-bit) octets, the value as stored. Characteristic values and other descriptors do not
/// count, so the hash changes only when the structure does.
public enum GATTDatabaseHash {
    /// The AES-CMAC key: 16 zero octets.
    public static let key = [UInt8](repeating: 0, count: 16)

    /// The types whose handle, type and value enter the message.
    static let typesWithValue: Set<BluetoothUUID> = [
        GATTAttributeType.primaryService, GATTAttributeType.secondaryService, GATTAttributeType.include,
        GATTAttributeType.characteristic, GATTAttributeType.characteristicExtendedProperties,
    ]
    /// The types whose handle and type (not value) enter the message.
    static let typesWithoutValue: Set<BluetoothUUID> = [
        GATTAttributeType.characteristicUserDescription, GATTAttributeType.clientCharacteristicConfiguration,
        GATTAttributeType.serverCharacteristicConfiguration, GATTAttributeType.characteristicPresentationFormat,
        GATTAttributeType.characteristicAggregateFormat,
    ]

    /// The message m: the contributions of `attributes` (which must be in ascending handle
    /// order), per the table above. A dynamic value contributes no octets (the builder makes
    /// every value that counts fixed).
    public static func message(_ attributes: some Sequence<GATTAttribute>) -> [UInt8] {
        var w = ByteWriter(capacity: 1024)
        for attribute in attributes {
            let withValue = typesWithValue.contains(attribute.type)
            guard withValue || typesWithoutValue.contains(attribute.type) else { continue }
            w.writeUInt16(attribute.handle)
            GATTLayouts.writeUUID(attribute.type, to: &w)
            if withValue, let value = attribute.value.fixedValue { w.writeBytes(value) }
        }
        return w.bytes
    }

    /// AES-CMAC of `message` under ``key`` (RFC 4493, through libcrypto), in the order AES-CMAC
    /// produces it: most significant octet first, as the specification prints the hash.
    ///
    /// - Returns: 16 octets; nil when libcrypto fails.
    public static func aesCMAC(_ message: [UInt8]) -> [UInt8]? {
        var mac = [UInt8](repeating: 0, count: 16)
        let status = message.withUnsafeBufferPointer { m in
            key.withUnsafeBufferPointer { k in
                mac.withUnsafeMutableBufferPointer { out in
                    ccrypto_aes_cmac(k.baseAddress, m.baseAddress, m.count, out.baseAddress)
                }
            }
        }
        return status == 0 ? mac : nil
    }

    /// The Database Hash characteristic value for `attributes` (in ascending handle order): the
    /// AES-CMAC of their ``message(_:)``, least significant octet first, as transmitted.
    ///
    /// - Throws: ``GATTDatabaseError/hashUnavailable`` when libcrypto fails.
    public static func characteristicValue(_ attributes: some Sequence<GATTAttribute>) throws(GATTDatabaseError) -> [UInt8] {
        guard let mac = aesCMAC(message(attributes)) else { throw .hashUnavailable }
        return mac.reversed()
    }
}
