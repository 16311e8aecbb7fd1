import BLECore

/// The 12-octet Authentication Signature that ends a signed ATT PDU (Core v5.4, Vol 3,
/// Part F, 3.3.1; computed as in Vol 3, Part H, 2.4.5).
///
/// | SignCounter | MAC |
/// |---|---|
/// | 4 octets, little-endian | 8 octets: the 64 most significant bits of the AES-CMAC, least significant octet first |
///
/// The codec carries the signature; it neither computes nor verifies it (that needs the
/// CSRK and the peer's last SignCounter, which the security layer holds).
public struct ATTAuthenticationSignature: Hashable, Sendable, CustomStringConvertible {
    /// The signature's length on the wire: 12 octets.
    public static let length = 12

    /// SignCounter: the signer's counter for this message; it increases with every signed
    /// message so a replay can be refused.
    public var signCounter: UInt32
    /// MAC: the 64 most significant bits of AES-CMAC(CSRK, message || SignCounter), as a number
    /// (sent least significant octet first).
    public var mac: UInt64

    /// A signature of `signCounter` and `mac`.
    public init(signCounter: UInt32, mac: UInt64) {
        self.signCounter = signCounter
        self.mac = mac
    }

    /// Reads SignCounter (4) and MAC (8).
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` for
    ///   "Authentication Signature" when fewer than 12 octets remain.
    public init(from r: inout ByteReader) throws(BLEDecodingError) {
        self = try ATTFieldDecoder.decodeWhole(Self.self, from: &r, size: Self.length, .authenticationSignature)
    }

    /// Appends SignCounter and MAC, least significant octet first.
    public func write(to w: inout ByteWriter) {
        var encoder = ATTFieldEncoder(writer: w)
        w = ByteWriter(capacity: 0)
        var copy = self
        copy.walk(&encoder)
        w = encoder.writer
    }

    /// The 12 octets in transmission order.
    public var octets: [UInt8] {
        var w = ByteWriter(capacity: Self.length)
        write(to: &w)
        return w.bytes
    }

    /// "sign counter 1 MAC f1871e933c900ff2" (the MAC's octets in transmission order).
    public var description: String { ATTFieldDescriber.summary(self) }
}

extension ATTAuthenticationSignature: ATTLayout {
    init() { self.init(signCounter: 0, mac: 0) }

    /// "sign counter 1 MAC f1871e933c900ff2".
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.integer(&signCounter, .signCounter)
        try c.integerOctets(&mac, .mac)
    }
}
