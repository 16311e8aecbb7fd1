import BLECore

/// ATT_SIGNED_WRITE_CMD, opcode 0xD2 (Core v5.4, Vol 3, Part F, 3.4.5.4): a Write Command with
/// an Authentication Signature, for writes on an unencrypted link.
///
/// | Attribute Opcode | Attribute Handle | Attribute Value | Authentication Signature |
/// |---|---|---|---|
/// | 1 octet (0xD2) | 2 octets | 0 to (ATT_MTU-15) octets | 12 octets |
///
/// The signature covers the opcode, handle and value (``signedMessage``). The command is
/// never answered and shall not be used on an Enhanced ATT bearer. Example from the
/// specification: `D2 1200 1337 01000000 F1871E933C900FF2` writes 13 37 to handle 0x0012
/// with SignCounter 1.
public struct ATTSignedWriteCommand: ATTPDUCodable {
    /// Not answered.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .signedWriteCommand, name: "Signed Write Command", pduName: "ATT_SIGNED_WRITE_CMD", kind: .command,
        case: ATTPDU.signedWriteCommand)

    /// Attribute Handle: the attribute to write.
    public var handle: UInt16
    /// Attribute Value: the new value, octets as transmitted (possibly none).
    public var value: [UInt8]
    /// Authentication Signature: SignCounter and MAC.
    public var signature: ATTAuthenticationSignature

    /// A signed command writing `value` to the attribute at `handle`.
    public init(handle: UInt16, value: [UInt8], signature: ATTAuthenticationSignature) {
        self.handle = handle
        self.value = value
        self.signature = signature
    }

    /// The message m the signature covers: Attribute Opcode, Attribute Handle and Attribute
    /// Value, in PDU order (3.3.1; the signer appends SignCounter before the CMAC, Part H, 2.4.5).
    public var signedMessage: [UInt8] { Array(encoded.dropLast(ATTAuthenticationSignature.length)) }
}

extension ATTSignedWriteCommand: ATTPDUBody {
    init() { self.init(handle: 0, value: [], signature: ATTAuthenticationSignature()) }

    /// "handle 0x0012 value 1337 sign counter 1 MAC f1871e933c900ff2"; the value is every octet
    /// but the last 12, and a PDU with fewer than 12 after the handle has a truncated signature.
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.handle(&handle, .attributeHandle)
        try c.remaining(&value, .attributeValue, reserving: ATTAuthenticationSignature.length)
        try c.group(&signature, .authenticationSignature, size: ATTAuthenticationSignature.length)
    }
}
