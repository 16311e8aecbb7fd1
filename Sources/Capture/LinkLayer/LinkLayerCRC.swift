/// The 24-bit CRC that ends every LE link-layer packet (Core v5.4, Vol 6, Part B, 3.1.1).
///
/// The generator is x^24 + x^10 + x^9 + x^6 + x^4 + x^3 + x + 1. The shift register is preset
/// with CRCInit (position 0 holds its least significant bit); the PDU (header and payload)
/// is shifted in least significant bit of each octet first; the register is then sent from
/// position 23 down to position 0. CRCInit is 0x555555 for advertising physical channel
/// PDUs and the CONNECT_IND's CRCInit for the connection's data physical channel PDUs.
///
/// Values here are register values, bit 23 = position 23 — the form Wireshark prints as
/// "CRC: 0x633c69". In a capture the three CRC octets hold the transmitted bits least
/// significant bit first, so each octet is the bit-reverse of a register octet
/// (``registerValue(captureOctets:)`` and ``captureOctets(registerValue:)`` convert).
public enum LinkLayerCRC {
    /// CRCInit for advertising physical channel PDUs (Core v5.4, Vol 6, Part B, 3.1.1).
    public static let advertisingCRCInit: UInt32 = 0x55_5555

    /// The CRC register after shifting in `pdu` (header and payload, as captured).
    ///
    /// - Parameter crcInit: the 24-bit initial value; higher bits are ignored.
    public static func compute<C: Collection>(_ pdu: C, crcInit: UInt32) -> UInt32 where C.Element == UInt8 {
        var register = crcInit & 0xFF_FFFF
        for octet in pdu {
            var bits = octet
            for _ in 0..<8 {
                let feedback = (UInt32(bits) ^ (register >> 23)) & 1
                register = (register << 1) & 0xFF_FFFF
                if feedback != 0 { register ^= 0x00_065B }
                bits >>= 1
            }
        }
        return register
    }

    /// The register value of the three CRC octets as a capture stores them.
    public static func registerValue(captureOctets b0: UInt8, _ b1: UInt8, _ b2: UInt8) -> UInt32 {
        UInt32(b0.bitReversed) << 16 | UInt32(b1.bitReversed) << 8 | UInt32(b2.bitReversed)
    }

    /// The three octets a capture stores for a register value.
    public static func captureOctets(registerValue value: UInt32) -> [UInt8] {
        [UInt8(truncatingIfNeeded: value >> 16).bitReversed,
         UInt8(truncatingIfNeeded: value >> 8).bitReversed,
         UInt8(truncatingIfNeeded: value).bitReversed]
    }
}

extension UInt8 {
    /// The octet with its bit order reversed (bit 0 becomes bit 7).
    var bitReversed: UInt8 {
        var v = self
        v = (v & 0xF0) >> 4 | (v & 0x0F) << 4
        v = (v & 0xCC) >> 2 | (v & 0x33) << 2
        v = (v & 0xAA) >> 1 | (v & 0x55) << 1
        return v
    }
}
