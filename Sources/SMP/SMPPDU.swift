import BLECore

/// One Security Manager Protocol command, the payload of a B-frame on CID 0x0006
/// (Core v5.4, Vol 3, Part H, 3.3-3.6).
///
/// Layout: Code (1 octet), then the command's fields. Every command has a fixed length, so
/// decoding is strict: a short command or a trailing octet throws ``SMPDecodingError`` naming the
/// field and its offset. Reserved codes are kept raw in ``unknown(code:data:)`` (the engine
/// ignores them, Part H 3.3). Keys and values are octets in transmission order.
///
/// ```swift
/// let pdu = try SMPPDU(decoding: frame.payload)
/// if case .pairingRequest(let features) = pdu, features.authReq.secureConnections { ... }
/// ```
public enum SMPPDU: Hashable, Sendable, CustomStringConvertible {
    /// 0x01, Part H 3.5.1: the initiator's IO capabilities, requirements and key distribution.
    case pairingRequest(SMPPairingFeatures)
    /// 0x02, Part H 3.5.2: the responder's answer, same fields.
    case pairingResponse(SMPPairingFeatures)
    /// 0x03, Part H 3.5.3: Confirm Value (16 octets).
    case pairingConfirm(confirmValue: SMPValue128)
    /// 0x04, Part H 3.5.4: Random Value (16 octets).
    case pairingRandom(randomValue: SMPValue128)
    /// 0x05, Part H 3.5.5: Reason (1 octet).
    case pairingFailed(reason: SMPPairingFailedReason)
    /// 0x06, Part H 3.6.2: Long Term Key (16 octets), LE legacy pairing.
    case encryptionInformation(longTermKey: SMPValue128)
    /// 0x07, Part H 3.6.3: EDIV (2) and Rand (8), LE legacy pairing.
    case centralIdentification(SMPCentralIdentification)
    /// 0x08, Part H 3.6.4: Identity Resolving Key (16 octets).
    case identityInformation(identityResolvingKey: SMPValue128)
    /// 0x09, Part H 3.6.5: AddrType (1) and BD_ADDR (6).
    case identityAddressInformation(SMPIdentityAddressInformation)
    /// 0x0A, Part H 3.6.6: Signature Key, the CSRK (16 octets).
    case signingInformation(signatureKey: SMPValue128)
    /// 0x0B, Part H 3.6.7: AuthReq (1 octet), a Peripheral asking the Central to pair or encrypt.
    case securityRequest(authReq: SMPAuthenticationRequirements)
    /// 0x0C, Part H 3.5.6: Public Key X and Y (32 octets each).
    case pairingPublicKey(SMPPairingPublicKey)
    /// 0x0D, Part H 3.5.7: DHKey Check (16 octets).
    case pairingDHKeyCheck(SMPValue128)
    /// 0x0E, Part H 3.5.8: Notification Type (1 octet).
    case keypressNotification(SMPKeypressNotificationType)
    /// A reserved code, with the octets after it as received.
    case unknown(code: SMPCode, data: [UInt8])

    /// Decodes one SMP command that fills `bytes` exactly.
    ///
    /// - Throws: ``SMPDecodingError`` with a nil code for an empty PDU; otherwise with the code
    ///   and the field that ran short (``BLEDecodingError/truncated(field:offset:needed:available:)``)
    ///   or the octets after the last field (``BLEDecodingError/unexpectedTrailingOctets(offset:count:)``).
    public init(decoding bytes: ArraySlice<UInt8>) throws(SMPDecodingError) {
        var r = ByteReader(bytes)
        let code: SMPCode
        do { code = SMPCode(rawValue: try r.readUInt8("Code")) } catch { throw SMPDecodingError(code: nil, underlying: error) }
        do {
            switch code {
            case .pairingRequest: self = .pairingRequest(try SMPPairingFeatures(reading: &r))
            case .pairingResponse: self = .pairingResponse(try SMPPairingFeatures(reading: &r))
            case .centralIdentification: self = .centralIdentification(try SMPCentralIdentification(reading: &r))
            case .identityAddressInformation: self = .identityAddressInformation(try SMPIdentityAddressInformation(reading: &r))
            case .pairingPublicKey: self = .pairingPublicKey(try SMPPairingPublicKey(reading: &r))
            case .pairingConfirm, .pairingRandom, .encryptionInformation, .identityInformation,
                 .signingInformation, .pairingDHKeyCheck:
                var field = SMPSingleValue(fieldName: Self.fieldName(code), value: .zero)
                try field.read(from: &r)
                self = Self.singleValue(code, field.value)
            case .pairingFailed:
                var field = SMPSingleOctet<SMPPairingFailedReason>(fieldName: Self.fieldName(code), value: .init(rawValue: 0))
                try field.read(from: &r)
                self = .pairingFailed(reason: field.value)
            case .securityRequest:
                var field = SMPSingleOctet<SMPAuthenticationRequirements>(fieldName: Self.fieldName(code), value: .init(rawValue: 0))
                try field.read(from: &r)
                self = .securityRequest(authReq: field.value)
            case .pairingKeypressNotification:
                var field = SMPSingleOctet<SMPKeypressNotificationType>(fieldName: Self.fieldName(code), value: .init(rawValue: 0))
                try field.read(from: &r)
                self = .keypressNotification(field.value)
            default:
                self = .unknown(code: code, data: r.readRemaining())
            }
            try r.expectEnd()
        } catch {
            throw SMPDecodingError(code: code, underlying: error)
        }
    }

    /// Decodes one SMP command that fills `bytes` exactly; see ``init(decoding:)-(ArraySlice<UInt8>)``.
    public init(decoding bytes: [UInt8]) throws(SMPDecodingError) { try self.init(decoding: bytes[...]) }

    /// The command's Code.
    public var code: SMPCode {
        switch self {
        case .pairingRequest: return .pairingRequest
        case .pairingResponse: return .pairingResponse
        case .pairingConfirm: return .pairingConfirm
        case .pairingRandom: return .pairingRandom
        case .pairingFailed: return .pairingFailed
        case .encryptionInformation: return .encryptionInformation
        case .centralIdentification: return .centralIdentification
        case .identityInformation: return .identityInformation
        case .identityAddressInformation: return .identityAddressInformation
        case .signingInformation: return .signingInformation
        case .securityRequest: return .securityRequest
        case .pairingPublicKey: return .pairingPublicKey
        case .pairingDHKeyCheck: return .pairingDHKeyCheck
        case .keypressNotification: return .pairingKeypressNotification
        case .unknown(let code, _): return code
        }
    }

    /// The command's octets, Code first: the B-frame payload for CID 0x0006.
    public var encoded: [UInt8] {
        var w = ByteWriter(capacity: 65)
        w.writeUInt8(code.rawValue)
        switch self {
        case .pairingRequest(let f), .pairingResponse(let f): f.write(to: &w)
        case .centralIdentification(let c): c.write(to: &w)
        case .identityAddressInformation(let a): a.write(to: &w)
        case .pairingPublicKey(let k): k.write(to: &w)
        case .pairingConfirm(let v), .pairingRandom(let v), .encryptionInformation(let v),
             .identityInformation(let v), .signingInformation(let v), .pairingDHKeyCheck(let v):
            SMPSingleValue(fieldName: Self.fieldName(code), value: v).write(to: &w)
        case .pairingFailed(let reason):
            SMPSingleOctet(fieldName: Self.fieldName(code), value: reason).write(to: &w)
        case .securityRequest(let authReq):
            SMPSingleOctet(fieldName: Self.fieldName(code), value: authReq).write(to: &w)
        case .keypressNotification(let type):
            SMPSingleOctet(fieldName: Self.fieldName(code), value: type).write(to: &w)
        case .unknown(_, let data):
            w.writeBytes(data)
        }
        return w.bytes
    }

    /// One line for a capture decoder; keys print as hexadecimal in transmission order.
    ///
    /// "Pairing Request IO capability KeyboardDisplay, OOB data not present, AuthReq bonding MITM SC CT2, ...",
    /// "Pairing Failed Confirm Value Failed (0x04)", "Identity Address Information random static FF:B8:37:72:4F:F8".
    public var description: String {
        let name = code.name ?? code.description
        switch self {
        case .pairingRequest(let f), .pairingResponse(let f): return "\(name) \(f.description)"
        case .pairingConfirm(let v), .pairingRandom(let v), .pairingDHKeyCheck(let v): return "\(name) \(v)"
        case .pairingFailed(let reason): return "\(name) \(reason)"
        case .encryptionInformation(let v): return "\(name) LTK \(v)"
        case .centralIdentification(let c): return "\(name) \(c)"
        case .identityInformation(let v): return "\(name) IRK \(v)"
        case .identityAddressInformation(let a): return "\(name) \(a)"
        case .signingInformation(let v): return "\(name) CSRK \(v)"
        case .securityRequest(let authReq): return "\(name) AuthReq \(authReq)"
        case .pairingPublicKey(let k): return "\(name) \(k)"
        case .keypressNotification(let type): return "\(name) \(type)"
        case let .unknown(code, data):
            return "\(code), \(data.isEmpty ? "no data" : "data \(Hex.encode(data))")"
        }
    }

    /// The name of the only field of a one-field command.
    static func fieldName(_ code: SMPCode) -> String {
        switch code {
        case .pairingConfirm: return "Confirm Value"
        case .pairingRandom: return "Random Value"
        case .pairingDHKeyCheck: return "DHKey Check"
        case .encryptionInformation: return "Long Term Key"
        case .identityInformation: return "Identity Resolving Key"
        case .signingInformation: return "Signature Key"
        case .pairingFailed: return "Reason"
        case .securityRequest: return "AuthReq"
        case .pairingKeypressNotification: return "Notification Type"
        default: return "Data"
        }
    }

    /// The case of a 128-bit one-field command.
    static func singleValue(_ code: SMPCode, _ value: SMPValue128) -> SMPPDU {
        switch code {
        case .pairingConfirm: return .pairingConfirm(confirmValue: value)
        case .pairingRandom: return .pairingRandom(randomValue: value)
        case .encryptionInformation: return .encryptionInformation(longTermKey: value)
        case .identityInformation: return .identityInformation(identityResolvingKey: value)
        case .signingInformation: return .signingInformation(signatureKey: value)
        default: return .pairingDHKeyCheck(value)
        }
    }
}
