import BLECore

/// The Initiator or Responder Key Distribution field of Pairing Request and Pairing Response:
/// which keys each side will send after pairing (Core v5.4, Vol 3, Part H, 3.6.1, Figure 3.11).
///
/// Bit 0 EncKey (LE legacy: LTK, EDIV and Rand; ignored with Secure Connections), bit 1 IdKey
/// (IRK and identity address), bit 2 SignKey (CSRK), bit 3 LinkKey (derive the BR/EDR link key),
/// bits 4...7 reserved and kept as received.
public struct SMPKeyDistribution: OptionSet, Hashable, Sendable, CustomStringConvertible, RawFieldValue {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bit 0: EncKey.
    public static let encKey = SMPKeyDistribution(rawValue: 0x01)
    /// Bit 1: IdKey.
    public static let idKey = SMPKeyDistribution(rawValue: 0x02)
    /// Bit 2: SignKey.
    public static let signKey = SMPKeyDistribution(rawValue: 0x04)
    /// Bit 3: LinkKey.
    public static let linkKey = SMPKeyDistribution(rawValue: 0x08)

    /// Bits 4...7, reserved for future use, as received.
    public var reservedBits: UInt8 { rawValue & 0xF0 }

    /// "EncKey IdKey SignKey LinkKey", "none", plus "reserved bits 0x10" when set.
    public var description: String {
        var parts: [String] = []
        if contains(.encKey) { parts.append("EncKey") }
        if contains(.idKey) { parts.append("IdKey") }
        if contains(.signKey) { parts.append("SignKey") }
        if contains(.linkKey) { parts.append("LinkKey") }
        if reservedBits != 0 { parts.append("reserved bits 0x\(Hex.encode([reservedBits]))") }
        return parts.isEmpty ? "none" : parts.joined(separator: " ")
    }
}
