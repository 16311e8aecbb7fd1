import BLECore

/// The LE Supported Features AD data (AD type 0x27, CSS Part A, 1.19): the device's link-layer
/// FeatureSet (Core v5.4, Vol 6, Part B, 4.6), least significant octet first, with trailing
/// all-zero octets left out, so the length varies.
public struct ADLESupportedFeatures: Hashable, Sendable, CustomStringConvertible {
    /// The feature octets as sent, bit 0 of the first octet first.
    public let bytes: [UInt8]

    /// Features from their octets, least significant first (trailing zero octets may be left out).
    public init(bytes: [UInt8]) { self.bytes = bytes }

    /// Whether feature bit `bit` (Vol 6, Part B, 4.6, for example 0 for LE Encryption) is set;
    /// bits past the octets sent are clear.
    public func isSet(bit: Int) -> Bool {
        guard bit >= 0, bit / 8 < bytes.count else { return false }
        return bytes[bit / 8] >> UInt8(bit % 8) & 1 == 1
    }

    /// The numbers of every set bit, ascending.
    public var setBits: [Int] {
        var out: [Int] = []
        for (i, b) in bytes.enumerated() where b != 0 {
            for k in 0..<8 where b >> UInt8(k) & 1 == 1 { out.append(i * 8 + k) }
        }
        return out
    }

    /// "bits 0, 5, 8 (01 01)"; "none" when no bit is set.
    public var description: String {
        let bits = setBits
        let hex = bytes.isEmpty ? "" : " (\(Hex.encode(bytes, separator: " ")))"
        return (bits.isEmpty ? "none" : "bits " + bits.map(String.init).joined(separator: ", ")) + hex
    }
}
