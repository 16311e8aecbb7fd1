import BLECore

/// The Attribute Opcode, the first octet of every ATT PDU (Core v5.4, Vol 3, Part F, 3.3.1,
/// Table 3.2), with a constant for every PDU of the Attribute Protocol summary (3.4.8, Table 3.43).
///
/// The octet has three fields:
///
/// | bit 7 | bit 6 | bits 5...0 |
/// |---|---|---|
/// | Authentication Signature Flag | Command Flag | Method |
///
/// An opcode this type has no constant for is not an error: it is kept raw, and ``kind``
/// classifies it by the Command Flag as far as the specification allows (3.3: a server
/// answers an unknown request with Request Not Supported and ignores an unknown command).
public struct ATTOpcode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
    /// The opcode octet as transmitted.
    public let rawValue: UInt8

    /// An opcode from its octet; every value is accepted and kept.
    @inlinable
    public init(rawValue: UInt8) { self.rawValue = rawValue }

    // MARK: Bit fields (3.3.1)

    /// Bit 7 of the opcode: the Authentication Signature Flag (0x80).
    public static let authenticationSignatureFlag: UInt8 = 0x80
    /// Bit 6 of the opcode: the Command Flag (0x40).
    public static let commandFlag: UInt8 = 0x40
    /// Bits 5...0 of the opcode: the Method.
    public static let methodMask: UInt8 = 0x3F

    /// Bits 5...0: the Method, which decides the format and meaning of the Attribute Parameters.
    @inlinable public var method: UInt8 { rawValue & Self.methodMask }

    /// Whether the Command Flag (bit 6) is set: such a PDU "shall be considered to be a
    /// command" (3.3.1) and is never answered.
    @inlinable public var isCommand: Bool { rawValue & Self.commandFlag != 0 }

    /// Whether the Authentication Signature Flag (bit 7) is set: the PDU then ends with a
    /// 12-octet Authentication Signature (3.3.1; only ATT_WRITE_CMD may carry one, becoming
    /// ATT_SIGNED_WRITE_CMD).
    @inlinable public var hasAuthenticationSignature: Bool { rawValue & Self.authenticationSignatureFlag != 0 }

    /// The octets the Authentication Signature takes at the end of the PDU: 12 when the
    /// Authentication Signature Flag is set, else 0 (3.3.1, Table 3.2).
    @inlinable public var authenticationSignatureLength: Int { hasAuthenticationSignature ? 12 : 0 }

    // MARK: Opcodes (3.4.8, Table 3.43)

    /// 0x01 ATT_ERROR_RSP (3.4.1.1).
    public static let errorResponse = ATTOpcode(rawValue: 0x01)
    /// 0x02 ATT_EXCHANGE_MTU_REQ (3.4.2.1).
    public static let exchangeMTURequest = ATTOpcode(rawValue: 0x02)
    /// 0x03 ATT_EXCHANGE_MTU_RSP (3.4.2.2).
    public static let exchangeMTUResponse = ATTOpcode(rawValue: 0x03)
    /// 0x04 ATT_FIND_INFORMATION_REQ (3.4.3.1).
    public static let findInformationRequest = ATTOpcode(rawValue: 0x04)
    /// 0x05 ATT_FIND_INFORMATION_RSP (3.4.3.2).
    public static let findInformationResponse = ATTOpcode(rawValue: 0x05)
    /// 0x06 ATT_FIND_BY_TYPE_VALUE_REQ (3.4.3.3).
    public static let findByTypeValueRequest = ATTOpcode(rawValue: 0x06)
    /// 0x07 ATT_FIND_BY_TYPE_VALUE_RSP (3.4.3.4).
    public static let findByTypeValueResponse = ATTOpcode(rawValue: 0x07)
    /// 0x08 ATT_READ_BY_TYPE_REQ (3.4.4.1).
    public static let readByTypeRequest = ATTOpcode(rawValue: 0x08)
    /// 0x09 ATT_READ_BY_TYPE_RSP (3.4.4.2).
    public static let readByTypeResponse = ATTOpcode(rawValue: 0x09)
    /// 0x0A ATT_READ_REQ (3.4.4.3).
    public static let readRequest = ATTOpcode(rawValue: 0x0A)
    /// 0x0B ATT_READ_RSP (3.4.4.4).
    public static let readResponse = ATTOpcode(rawValue: 0x0B)
    /// 0x0C ATT_READ_BLOB_REQ (3.4.4.5).
    public static let readBlobRequest = ATTOpcode(rawValue: 0x0C)
    /// 0x0D ATT_READ_BLOB_RSP (3.4.4.6).
    public static let readBlobResponse = ATTOpcode(rawValue: 0x0D)
    /// 0x0E ATT_READ_MULTIPLE_REQ (3.4.4.7).
    public static let readMultipleRequest = ATTOpcode(rawValue: 0x0E)
    /// 0x0F ATT_READ_MULTIPLE_RSP (3.4.4.8).
    public static let readMultipleResponse = ATTOpcode(rawValue: 0x0F)
    /// 0x10 ATT_READ_BY_GROUP_TYPE_REQ (3.4.4.9).
    public static let readByGroupTypeRequest = ATTOpcode(rawValue: 0x10)
    /// 0x11 ATT_READ_BY_GROUP_TYPE_RSP (3.4.4.10).
    public static let readByGroupTypeResponse = ATTOpcode(rawValue: 0x11)
    /// 0x12 ATT_WRITE_REQ (3.4.5.1).
    public static let writeRequest = ATTOpcode(rawValue: 0x12)
    /// 0x13 ATT_WRITE_RSP (3.4.5.2).
    public static let writeResponse = ATTOpcode(rawValue: 0x13)
    /// 0x16 ATT_PREPARE_WRITE_REQ (3.4.6.1).
    public static let prepareWriteRequest = ATTOpcode(rawValue: 0x16)
    /// 0x17 ATT_PREPARE_WRITE_RSP (3.4.6.2).
    public static let prepareWriteResponse = ATTOpcode(rawValue: 0x17)
    /// 0x18 ATT_EXECUTE_WRITE_REQ (3.4.6.3).
    public static let executeWriteRequest = ATTOpcode(rawValue: 0x18)
    /// 0x19 ATT_EXECUTE_WRITE_RSP (3.4.6.4).
    public static let executeWriteResponse = ATTOpcode(rawValue: 0x19)
    /// 0x1B ATT_HANDLE_VALUE_NTF (3.4.7.1).
    public static let handleValueNotification = ATTOpcode(rawValue: 0x1B)
    /// 0x1D ATT_HANDLE_VALUE_IND (3.4.7.2).
    public static let handleValueIndication = ATTOpcode(rawValue: 0x1D)
    /// 0x1E ATT_HANDLE_VALUE_CFM (3.4.7.3).
    public static let handleValueConfirmation = ATTOpcode(rawValue: 0x1E)
    /// 0x20 ATT_READ_MULTIPLE_VARIABLE_REQ (3.4.4.11).
    public static let readMultipleVariableRequest = ATTOpcode(rawValue: 0x20)
    /// 0x21 ATT_READ_MULTIPLE_VARIABLE_RSP (3.4.4.12).
    public static let readMultipleVariableResponse = ATTOpcode(rawValue: 0x21)
    /// 0x23 ATT_MULTIPLE_HANDLE_VALUE_NTF (3.4.7.4).
    public static let multipleHandleValueNotification = ATTOpcode(rawValue: 0x23)
    /// 0x52 ATT_WRITE_CMD (3.4.5.3): Command Flag set, method 0x12.
    public static let writeCommand = ATTOpcode(rawValue: 0x52)
    /// 0xD2 ATT_SIGNED_WRITE_CMD (3.4.5.4): Authentication Signature Flag and Command Flag set, method 0x12.
    public static let signedWriteCommand = ATTOpcode(rawValue: 0xD2)

    /// Every opcode the specification defines, in opcode order.
    public static let allDefined: [ATTOpcode] = ATTPDURegistry.declared.map { $0.opcode }.sorted { $0.rawValue < $1.rawValue }

    /// Whether the specification defines this opcode (3.4.8, Table 3.43).
    public var isDefined: Bool { ATTPDURegistry.kinds[Int(rawValue)] != nil }

    // MARK: Classification (3.3, Table 3.1; 3.4.9, Table 3.44), from the PDUs' declarations

    /// The PDU type: request, response, command, notification, indication or confirmation
    /// (3.3, Table 3.1), as the PDU's declaration gives it.
    ///
    /// An opcode the specification does not define is a ``ATTPDUKind/command`` when its
    /// Command Flag is set (3.3.1), and ``ATTPDUKind/unknown`` otherwise (a server answers
    /// such a PDU with Request Not Supported, 3.3).
    public var kind: ATTPDUKind {
        if let kind = ATTPDURegistry.kinds[Int(rawValue)] { return kind }
        return isCommand ? .command : .unknown
    }

    /// The PDU that answers this one when it succeeds: a request's response, or
    /// ATT_HANDLE_VALUE_CFM for ATT_HANDLE_VALUE_IND (3.4.9, Table 3.44), as the PDU's
    /// declaration pairs them. Nil for PDUs that are not answered and for opcodes the
    /// specification does not define. A request may also be answered by ATT_ERROR_RSP.
    public var successfulResponse: ATTOpcode? { ATTPDURegistry.entries[Int(rawValue)]?.response }

    /// The request (or indication) that this response (or confirmation) answers; the
    /// inverse of ``successfulResponse``. Nil for ATT_ERROR_RSP, which answers any request
    /// (the request is named in its Request Opcode In Error parameter).
    public var answeredRequest: ATTOpcode? { ATTPDURegistry.answeredRequests[Int(rawValue)] }

    // MARK: Names

    /// The PDU's descriptive name, as earlier editions of the specification and the tools of
    /// the field print it: "Read By Group Type Request". An opcode the specification does not
    /// define reads "Unknown Command (0x7f)" when its Command Flag is set, else
    /// "Unknown Opcode (0x3f)".
    public var name: String {
        if let entry = ATTPDURegistry.entries[Int(rawValue)] { return entry.name }
        return (isCommand ? "Unknown Command (0x" : "Unknown Opcode (0x") + Hex.encode(CollectionOfOne(rawValue)) + ")"
    }

    /// The PDU's name in Core v5.4 (3.4.8, Table 3.43), such as "ATT_READ_BY_GROUP_TYPE_REQ";
    /// nil for an opcode the specification does not define.
    public var pduName: String? { ATTPDURegistry.entries[Int(rawValue)]?.pduName }

    /// ``name`` followed by the opcode in hexadecimal: "Exchange MTU Request (0x02)". An
    /// unknown opcode prints as its ``name``, which already shows the value.
    public var description: String {
        guard isDefined else { return name }
        return name + " (0x" + Hex.encode(CollectionOfOne(rawValue)) + ")"
    }
}
