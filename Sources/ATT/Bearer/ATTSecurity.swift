/// The security the link under an ATT bearer offers now, as a GATT server needs it for its
/// permission checks (Core v5.4, Vol 3, Part F, 3.2.5; Vol 3, Part G, 8.1).
///
/// The values change over a connection's life (encryption starts, the application authorises
/// the peer), so a bearer reports them each time they are asked for.
///
/// ```swift
/// let link = ATTSecurity(isEncrypted: true, isAuthenticated: true, encryptionKeySize: 16)
/// link.encryptionKeySize   // 16 octets
/// ATTSecurity.none         // a new, unencrypted link
/// ```
public struct ATTSecurity: Sendable, Hashable, CustomStringConvertible {
    /// Whether the link is encrypted (LE: encryption started with an STK or LTK).
    public var isEncrypted: Bool
    /// Whether the key encrypting the link came from an authenticated (MITM-protected) pairing.
    public var isAuthenticated: Bool
    /// Whether the application has authorised this peer to use attributes that require
    /// authorization (Part F, 3.2.5: authorization is decided above ATT).
    public var isAuthorized: Bool
    /// The size of the encryption key, in octets: 7...16 on an encrypted link, 0 when the link
    /// is not encrypted (Vol 3, Part H, 2.3.4).
    public var encryptionKeySize: Int

    /// A link with the security given; the defaults describe an unencrypted, unauthorised link.
    public init(isEncrypted: Bool = false, isAuthenticated: Bool = false, isAuthorized: Bool = false,
                encryptionKeySize: Int = 0) {
        self.isEncrypted = isEncrypted
        self.isAuthenticated = isAuthenticated
        self.isAuthorized = isAuthorized
        self.encryptionKeySize = encryptionKeySize
    }

    /// A link without encryption, authentication or authorization (key size 0), as every LE
    /// connection starts.
    public static let none = ATTSecurity()

    /// "none", or the properties that hold: "encrypted (16 octets), authenticated, authorized".
    public var description: String {
        var parts: [String] = []
        if isEncrypted { parts.append("encrypted (\(encryptionKeySize) octets)") }
        if isAuthenticated { parts.append("authenticated") }
        if isAuthorized { parts.append("authorized") }
        return parts.isEmpty ? "none" : parts.joined(separator: ", ")
    }
}
