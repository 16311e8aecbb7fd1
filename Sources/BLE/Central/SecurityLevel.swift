/// How secure a link must be before ATT flows on it: the levels of LE security mode 1 (Core v5.4,
/// Vol 3, Part C, 10.2.1), as ``ConnectOptions/security`` asks for them.
///
/// ```swift
/// try await central.connect(peripheral, options: ConnectOptions(security: .encrypted))
/// ```
///
/// A characteristic whose permissions need encryption answers a read or write on a link below
/// them with Insufficient Authentication (0x05) or Insufficient Encryption (0x0F) (Part C,
/// 10.3.1): ``BLEError/att(_:handle:)``, after which connecting again with a higher level is the
/// remedy.
public enum SecurityLevel: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Level 1: no security, no encryption. The default.
    case none
    /// Level 2: an encrypted link after unauthenticated pairing (Just Works, Part H, 2.3.5.1),
    /// or with a key from an earlier pairing.
    case encrypted
    /// Level 3: an encrypted link after authenticated pairing (protection from a man in the
    /// middle: passkey entry, numeric comparison or out of band, Part H, 2.3.5).
    case authenticated

    /// "none", "encrypted", "authenticated".
    public var description: String {
        switch self {
        case .none: return "none"
        case .encrypted: return "encrypted"
        case .authenticated: return "authenticated"
        }
    }
}
