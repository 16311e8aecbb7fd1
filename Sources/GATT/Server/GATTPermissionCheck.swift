import ATT

/// The server's one ordered permission check (Core v5.4, Vol 3, Part F, 3.2.5 and 3.4; Part C,
/// 10.3.1): whether a read or write of an attribute is allowed on the link now, and if not, the
/// exact ATT error.
///
/// | Step | Failing condition | Error |
/// |---|---|---|
/// | 1 | the access is not permitted at all | Read Not Permitted (0x02) / Write Not Permitted (0x03) |
/// | 2 | encryption is needed (encryption, authentication or a key size is required) and the link is not encrypted | Insufficient Authentication (0x05) when no LTK/STK exists for the peer, Insufficient Encryption (0x0F) when one does |
/// | 3 | the link's key is shorter than the minimum | Encryption Key Size Too Short (0x0C) |
/// | 4 | authentication is required and the key is unauthenticated | Insufficient Authentication (0x05) |
/// | 5 | authorization is required and the peer is not authorised | Insufficient Authorization (0x08) |
///
/// Where the order comes from: Part F, 3.4.1.1 leaves it open ("If more than one error code
/// applies, then it is vendor-specific which error code is transmitted"). Part F, 3.4.4.3 and
/// its siblings list the codes per request; Part C, 10.3.1 (Responding to a service request) and
/// its Table 10.2 fix the security steps and their order: no key at all gives Insufficient
/// Authentication, a key without encryption Insufficient Encryption, encryption "with a key size
/// that is too short" Encryption Key Size Too Short, and an unauthenticated key where an
/// authenticated one is required Insufficient Authentication. Whether the access is permitted at
/// all comes first, because no security can change it (Part F, 3.2.5). Authorization comes last:
/// it is the application's decision (Part C, 10.5), which the client can only ask for once the
/// link is secure enough.
struct GATTPermissionCheck {
    /// Read or write.
    enum Access { case read, write }

    /// The link's security, asked of the bearer at most once, and only when a requirement needs it.
    struct Link {
        let engine: ATTEngine?
        /// Whether an LTK or STK exists for the peer (Part C, 10.3.1 step 2).
        let hasKey: Bool
        /// An authenticated CSRK verified this write (a signed write, Part C, 10.4.2).
        var signedWithAuthenticatedKey = false
        private var cached: ATTSecurity?

        init(engine: ATTEngine?, hasKey: Bool, security: ATTSecurity? = nil) {
            self.engine = engine
            self.hasKey = hasKey
            self.cached = security
        }

        nonisolated(nonsending) mutating func security() async -> ATTSecurity {
            if let cached { return cached }
            let security = await engine?.security ?? ATTSecurity.none
            cached = security
            return security
        }
    }

    /// The error for accessing an attribute with `permissions` on `link`; nil when allowed.
    nonisolated(nonsending) static func error(_ permissions: GATTPermissions, _ access: Access, link: inout Link) async -> ATTErrorCode? {
        let requirement = access == .read ? permissions.read : permissions.write
        guard let requirement else { return access == .read ? .readNotPermitted : .writeNotPermitted }
        if requirement.isOpen { return nil }
        let security = await link.security()
        return error(requirement, security: security, hasKey: link.hasKey, signedWithAuthenticatedKey: link.signedWithAuthenticatedKey)
    }

    /// Steps 2-5 for a permitted access with `requirement`.
    static func error(_ requirement: GATTAccess, security: ATTSecurity, hasKey: Bool,
                      signedWithAuthenticatedKey: Bool = false) -> ATTErrorCode? {
        let needsEncryption = requirement.encryption || requirement.minimumKeySize > 0
            || (requirement.authentication && !signedWithAuthenticatedKey)
        if needsEncryption, !security.isEncrypted {
            return hasKey ? .insufficientEncryption : .insufficientAuthentication
        }
        if requirement.minimumKeySize > 0, security.encryptionKeySize < requirement.minimumKeySize {
            return .encryptionKeySizeTooShort
        }
        if requirement.authentication, !security.isAuthenticated, !signedWithAuthenticatedKey {
            return .insufficientAuthentication
        }
        if requirement.authorization, !security.isAuthorized {
            return .insufficientAuthorization
        }
        return nil
    }
}
