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
    /// The Attribute Opcode of this PDU, ``ATTOpcode/signedWriteCommand``.
    public static let opcode = ATTOpcode.signedWriteCommand

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
    public var signedMessage: [UInt8] {
        var w = ByteWriter(capacity: 3 + value.count)
        w.writeUInt8(Self.opcode.rawValue)
        w.writeUInt16(handle)
        w.writeBytes(value)
        return w.bytes
    }

    /// Reads Attribute Handle (2), the Attribute Value (all but the last 12 octets), then the
    /// Authentication Signature (12).
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` for
    ///   "Attribute Handle", or "Authentication Signature" when fewer than 12 octets follow the handle.
    public init(parameters r: inout ByteReader) throws(BLEDecodingError) {
        handle = try r.readUInt16("Attribute Handle")
        let valueLength = r.remainingCount - ATTAuthenticationSignature.length
        value = valueLength > 0 ? try r.readBytes(valueLength, "Attribute Value") : []
        signature = try ATTAuthenticationSignature(from: &r)
    }

    /// Appends the parameters in the order of the table above, without the opcode.
    public func encodeParameters(to w: inout ByteWriter) {
        w.writeUInt16(handle)
        w.writeBytes(value)
        signature.write(to: &w)
    }

    /// handle (integer), value (octets), sign_counter (integer), mac (octets, transmission order).
    public var fields: [ATTField] {
        [ATTField("handle", .integer(Int(handle))),
         ATTField("value", .octets(value)),
         ATTField("sign_counter", .integer(Int(signature.signCounter))),
         ATTField("mac", .octets(Array(signature.octets.suffix(8))))]
    }

    /// "handle 0x0012 value 1337 sign counter 1 MAC f1871e933c900ff2".
    public var parameterSummary: String {
        "handle \(Hex.hex16(handle)) value \(ATTText.octets(value)) \(signature)"
    }
}
