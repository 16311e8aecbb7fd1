import BLECore

/// Pairing Public Key, code 0x0C: the device's P-256 public key for LE Secure Connections
/// (Core v5.4, Vol 3, Part H, 3.5.6).
///
/// Layout after the Code, 64 octets: Public Key X (32), Public Key Y (32), each least
/// significant octet first. Carrying it needs an SMP MTU of at least 65 octets.
public struct SMPPairingPublicKey: Hashable, Sendable, CustomStringConvertible {
    /// The X coordinate.
    public var x: SMPPublicKeyCoordinate
    /// The Y coordinate.
    public var y: SMPPublicKeyCoordinate

    /// A public key from its two coordinates.
    public init(x: SMPPublicKeyCoordinate, y: SMPPublicKeyCoordinate) {
        self.x = x
        self.y = y
    }

    /// "X 4d77…, Y 1f1e…", each in transmission order.
    public var description: String { "X \(x), Y \(y)" }
}

extension SMPPairingPublicKey: SMPCommandLayout {
    init() { self.init(x: .zero, y: .zero) }

    mutating func layout<C: FieldLayoutCoder>(_ c: inout C) throws(C.Failure) {
        try c.field(&x, "Public Key X")
        try c.field(&y, "Public Key Y")
    }
}
