import ATT
import CCrypto

/// A peer's Connection Signature Resolving Key, CSRK (Core v5.4, Vol 3, Part H, 2.4.2.2), with
/// which ATT_SIGNED_WRITE_CMD PDUs are signed and verified (Part H, 2.4.5; Part C, 10.4).
///
/// The signature of a message m with SignCounter c is c (4 octets) followed by the 64 most
/// significant bits of AES-CMAC(CSRK, m || c). As in every Security Manager function, the
/// AES-CMAC input is the octet sequence read as one number, most significant octet first, so the
/// transmitted octets are reversed before the CMAC; Part F, 3.4.5.4 gives the example this type
/// is tested against (m = D2 1200 1337, c = 1, CSRK 0x611B64EB...DF425E50, signature
/// 01000000 F1871E933C900FF2).
///
/// ```swift
/// let key = GATTSigningKey(csrk: csrkFromSigningInformation, isAuthenticated: true)
/// let signature = key.signature(for: [0xD2, 0x12, 0x00, 0x13, 0x37], signCounter: 1)
/// ```
public struct GATTSigningKey: Sendable, Hashable {
    /// The CSRK's 16 octets, least significant first, as SMP's Signing Information carries them
    /// (Part H, 3.6.6).
    public var csrk: [UInt8]
    /// Whether the CSRK came from an authenticated (MITM-protected) pairing: a write signed with
    /// it satisfies an authentication requirement (LE security mode 2 level 2, Part C, 10.2.2).
    public var isAuthenticated: Bool

    /// A key from the 16 CSRK octets, least significant first. A key of another length signs
    /// nothing and verifies nothing.
    public init(csrk: [UInt8], isAuthenticated: Bool = false) {
        self.csrk = csrk
        self.isAuthenticated = isAuthenticated
    }

    /// A key from the CSRK as the 128-bit number the specification prints (most significant
    /// octet first, as in "0x611B64EBFBCD1FD372EC9196DF425E50").
    public init(csrkNumber octets: [UInt8], isAuthenticated: Bool = false) {
        self.init(csrk: octets.reversed(), isAuthenticated: isAuthenticated)
    }

    /// The MAC of `message` with `signCounter`: the 64 most significant bits of the AES-CMAC, as
    /// ``ATTAuthenticationSignature/mac`` holds it; nil when the key is not 16 octets or
    /// libcrypto fails.
    public func mac(for message: [UInt8], signCounter: UInt32) -> UInt64? {
        guard csrk.count == 16 else { return nil }
        // M = m || SignCounter in transmission order, then read as a number: reversed.
        var m = message
        m.append(UInt8(truncatingIfNeeded: signCounter))
        m.append(UInt8(truncatingIfNeeded: signCounter >> 8))
        m.append(UInt8(truncatingIfNeeded: signCounter >> 16))
        m.append(UInt8(truncatingIfNeeded: signCounter >> 24))
        m.reverse()
        let key = Array(csrk.reversed())
        var cmac = [UInt8](repeating: 0, count: 16)
        let status = m.withUnsafeBufferPointer { mp in
            key.withUnsafeBufferPointer { kp in
                cmac.withUnsafeMutableBufferPointer { out in
                    ccrypto_aes_cmac(kp.baseAddress, mp.baseAddress, mp.count, out.baseAddress)
                }
            }
        }
        guard status == 0 else { return nil }
        return cmac.prefix(8).reduce(UInt64(0)) { ($0 << 8) | UInt64($1) }
    }

    /// The Authentication Signature for `message` (the Attribute Opcode and Parameters) with
    /// `signCounter`; nil when the key cannot sign.
    public func signature(for message: [UInt8], signCounter: UInt32) -> ATTAuthenticationSignature? {
        mac(for: message, signCounter: signCounter).map { ATTAuthenticationSignature(signCounter: signCounter, mac: $0) }
    }

    /// Whether `command`'s MAC is the one this key computes for its message and SignCounter. The
    /// SignCounter's freshness is the caller's to check (Part C, 10.4.2).
    public func verifies(_ command: ATTSignedWriteCommand) -> Bool {
        guard let expected = mac(for: command.signedMessage, signCounter: command.signature.signCounter) else { return false }
        return expected == command.signature.mac
    }
}
