import BLECore

/// A peer as the management channel names it: Address (6 octets, least significant first) and
/// Address_Type (0 BR/EDR, 1 LE public, 2 LE random) (Linux, BlueZ doc/mgmt-api.txt, the
/// "Address_Type" of the pairing commands and events).
public struct ManagementAddress: Hashable, Sendable, CustomStringConvertible {
    /// Address_Type 0x00: BR/EDR.
    public static let brEDR: UInt8 = 0x00
    /// Address_Type 0x01: LE public.
    public static let lePublic: UInt8 = 0x01
    /// Address_Type 0x02: LE random.
    public static let leRandom: UInt8 = 0x02

    /// The peer's device address.
    public var address: BluetoothAddress
    /// The Address_Type, kept raw (values past 0x02 are not defined).
    public var addressType: UInt8

    /// A peer from its address and Address_Type.
    public init(address: BluetoothAddress, addressType: UInt8) {
        self.address = address
        self.addressType = addressType
    }

    /// Reads Address (6) and Address_Type (1).
    ///
    /// - Throws: ``BLEDecodingError`` when fewer than 7 octets remain.
    public init(decoding reader: inout ByteReader) throws(BLEDecodingError) {
        address = try BluetoothAddress(from: &reader, field: "Address")
        addressType = try reader.readUInt8("Address_Type")
    }

    /// The 7 octets: the address least significant first, then the type.
    public var encoded: [UInt8] { address.littleEndianOctets + [addressType] }

    /// Whether the peer is an LE device (Address_Type 1 or 2).
    public var isLE: Bool { addressType == Self.lePublic || addressType == Self.leRandom }

    /// "00:AA:01:01:00:01 (LE public)", "... (LE random)", "... (BR/EDR)", "... (type 0x07)".
    public var description: String {
        switch addressType {
        case Self.brEDR: return "\(address) (BR/EDR)"
        case Self.lePublic: return "\(address) (LE public)"
        case Self.leRandom: return "\(address) (LE random)"
        default: return "\(address) (type 0x\(Hex.encode([addressType])))"
        }
    }
}
