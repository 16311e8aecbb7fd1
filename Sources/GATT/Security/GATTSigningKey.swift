import ATT
import BLECore
import CCrypto

/// A Connection Signature Resolving Key (CSRK, Core v5.4, Vol 3, Part H, 2.4.2.2 and 3.6.6):
/// the 128-bit key that signs ATT_SIGNED_WRITE_CMD (Vol 3, Part G, 4.9.2) on a link that is
/// not encrypted.
///
/// ```swift
/// // The specification's example (Part F, 3.4.5.4): 'D212001337' with SignCounter 1.
/// let csrk = GATTSigningKey(mostSignificantFirst: "611B64EBFBCD1FD372EC9196DF425E50")!
/// let signature = try csrk.signature(of: [0xD2, 0x12, 0x00, 0x13, 0x37], signCounter: 1)
/// signature.octets   // 01000000 f1871e933c900ff2
/// ```
///
/// **The signing algorithm (Part H, 2.4.5).** The signed data is the message m (for a signed
/// write: Attribute Opcode, Attribute Handle, Attribute Value, as sent) followed by the
/// 4-octet SignCounter, least significant octet first. AES-CMAC (Part H, 2.2.5) treats it as
/// one number, so the octets go to the cipher most significant first: the whole buffer
/// reversed. The MAC is the 64 most significant bits of the CMAC; the PDU carries SignCounter
/// then MAC, each least significant octet first. The CMAC comes from OpenSSL's libcrypto
/// through CCrypto; nothing is hand-rolled.
///
/// The client signs with it (``GATTClient``); the server verifies with it (``GATTServerConnection``).
public struct GATTSigningKey: Sendable, Hashable, CustomStringConvertible {
    /// The key's 16 octets in transmission order (least significant first), as the SMP
    /// Signing Information command carries them (Part H, 3.6.6).
    public let octets: [UInt8]
    /// Whether the CSRK came from an authenticated (MITM-protected) pairing: a write signed with
    /// it satisfies an authentication requirement (LE security mode 2 level 2, Part C, 10.2.2).
    public var isAuthenticated: Bool

    /// A key from its 16 octets in transmission order; nil for any other count.
    public init?(octets: [UInt8], isAuthenticated: Bool = false) {
        guard octets.count == 16 else { return nil }
        self.octets = octets
        self.isAuthenticated = isAuthenticated
    }

    /// A key from 32 hexadecimal digits, most significant first, as the specification's sample
    /// data writes keys; nil for any other text.
    public init?(mostSignificantFirst hex: String, isAuthenticated: Bool = false) {
        guard let bytes = Hex.decode(hex), bytes.count == 16 else { return nil }
        self.init(octets: bytes.reversed(), isAuthenticated: isAuthenticated)
    }

    /// The signature of `message` with `signCounter` (Part H, 2.4.5).
    ///
    /// - Parameter message: the octets signed, in PDU order (for ATT_SIGNED_WRITE_CMD,
    ///   ``ATTSignedWriteCommand/signedMessage``).
    /// - Throws: ``GATTClientError/signingFailed`` when libcrypto fails.
    public func signature(of message: [UInt8], signCounter: UInt32) throws(GATTClientError) -> ATTAuthenticationSignature {
        var signed = message
        signed.reserveCapacity(message.count + 4)
        withUnsafeBytes(of: signCounter.littleEndian) { signed.append(contentsOf: $0) }
        signed.reverse()
        let key = Array(octets.reversed())
        var cmac = [UInt8](repeating: 0, count: 16)
        let status = ccrypto_aes_cmac(key, signed, signed.count, &cmac)
        guard status == 0 else { throw .signingFailed }
        var mac: UInt64 = 0
        for octet in cmac.prefix(8) { mac = mac << 8 | UInt64(octet) }
        return ATTAuthenticationSignature(signCounter: signCounter, mac: mac)
    }

    /// A signed write of `value` to `handle` with `signCounter`.
    ///
    /// - Throws: ``GATTClientError/signingFailed`` when libcrypto fails.
    public func signedWrite(handle: UInt16, value: [UInt8], signCounter: UInt32) throws(GATTClientError) -> ATTSignedWriteCommand {
        var command = ATTSignedWriteCommand(handle: handle, value: value,
                                            signature: ATTAuthenticationSignature(signCounter: signCounter, mac: 0))
        command.signature = try signature(of: command.signedMessage, signCounter: signCounter)
        return command
    }

    /// Whether `command`'s MAC is the one this key gives for its message and SignCounter
    /// (the SignCounter's freshness is the verifier's to check, Part H, 2.4.5). False when
    /// libcrypto fails.
    public func verifies(_ command: ATTSignedWriteCommand) -> Bool {
        guard let expected = try? signature(of: command.signedMessage, signCounter: command.signature.signCounter) else {
            return false
        }
        return expected.mac == command.signature.mac
    }

    /// "CSRK" and nothing of the key: descriptions end up in logs.
    public var description: String { "CSRK" }
}
