import BLECore

/// The AuthReq bit field of Pairing Request, Pairing Response and Security Request
/// (Core v5.4, Vol 3, Part H, 3.5.1, Figure 3.3).
///
/// Bits 0...1 Bonding_Flags (0b00 No Bonding, 0b01 Bonding, others reserved), bit 2 MITM,
/// bit 3 SC (LE Secure Connections), bit 4 Keypress, bit 5 CT2 (h7 supported for cross-transport
/// key derivation), bits 6...7 reserved. Every bit is kept as received.
public struct SMPAuthenticationRequirements: RawRepresentable, Hashable, Sendable, CustomStringConvertible, RawFieldValue {
    public let rawValue: UInt8
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// AuthReq from its flags; `bondingFlags` is masked to 2 bits.
    public init(bondingFlags: UInt8 = 0b01, mitm: Bool = false, secureConnections: Bool = false,
                keypress: Bool = false, ct2: Bool = false) {
        var raw = bondingFlags & 0b11
        if mitm { raw |= 0x04 }
        if secureConnections { raw |= 0x08 }
        if keypress { raw |= 0x10 }
        if ct2 { raw |= 0x20 }
        self.rawValue = raw
    }

    /// Bits 0...1, Bonding_Flags: 0b00 No Bonding, 0b01 Bonding, 0b10 and 0b11 reserved.
    public var bondingFlags: UInt8 { rawValue & 0b11 }
    /// Whether Bonding_Flags is 0b01 (Bonding).
    public var bonding: Bool { bondingFlags == 0b01 }
    /// Bit 2: MITM protection requested.
    public var mitm: Bool { rawValue & 0x04 != 0 }
    /// Bit 3: LE Secure Connections pairing supported.
    public var secureConnections: Bool { rawValue & 0x08 != 0 }
    /// Bit 4: keypress notifications wanted in Passkey Entry.
    public var keypress: Bool { rawValue & 0x10 != 0 }
    /// Bit 5: CT2, the h7 function is supported for cross-transport key derivation.
    public var ct2: Bool { rawValue & 0x20 != 0 }
    /// Bits 6...7, reserved for future use, as received.
    public var reservedBits: UInt8 { rawValue & 0xC0 }

    /// "bonding MITM SC CT2", "no bonding", plus "bonding flags 0b10 (reserved)" and
    /// "reserved bits 0x40" when set.
    public var description: String {
        var parts: [String] = []
        switch bondingFlags {
        case 0b00: parts.append("no bonding")
        case 0b01: parts.append("bonding")
        default: parts.append("bonding flags 0b\(bondingFlags == 0b10 ? "10" : "11") (reserved)")
        }
        if mitm { parts.append("MITM") }
        if secureConnections { parts.append("SC") }
        if keypress { parts.append("keypress") }
        if ct2 { parts.append("CT2") }
        if reservedBits != 0 { parts.append("reserved bits 0x\(Hex.encode([reservedBits]))") }
        return parts.joined(separator: " ")
    }
}
