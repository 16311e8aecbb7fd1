import BLECore

/// One command of the LE signaling channel, CID 0x0005 (Core v5.4, Vol 3, Part A, 4).
///
/// Every code Table 4.2 allows on LE-U is parsed into its own type; any other code (reserved,
/// or one only allowed on BR/EDR, such as Information Request) is kept raw in
/// ``unknown(code:data:)``, so a responder can answer it with Command Reject, "Command not
/// understood".
public enum LESignalingCommand: Hashable, Sendable, CustomStringConvertible {
    /// 0x01, Part A 4.1.
    case commandReject(L2CAPCommandReject)
    /// 0x06, Part A 4.6.
    case disconnectionRequest(L2CAPDisconnectionRequest)
    /// 0x07, Part A 4.7.
    case disconnectionResponse(L2CAPDisconnectionResponse)
    /// 0x12, Part A 4.20.
    case connectionParameterUpdateRequest(L2CAPConnectionParameterUpdateRequest)
    /// 0x13, Part A 4.21.
    case connectionParameterUpdateResponse(L2CAPConnectionParameterUpdateResponse)
    /// 0x14, Part A 4.22.
    case leCreditBasedConnectionRequest(L2CAPLECreditBasedConnectionRequest)
    /// 0x15, Part A 4.23.
    case leCreditBasedConnectionResponse(L2CAPLECreditBasedConnectionResponse)
    /// 0x16, Part A 4.24.
    case flowControlCreditIndication(L2CAPFlowControlCreditIndication)
    /// 0x17, Part A 4.25.
    case creditBasedConnectionRequest(L2CAPCreditBasedConnectionRequest)
    /// 0x18, Part A 4.26.
    case creditBasedConnectionResponse(L2CAPCreditBasedConnectionResponse)
    /// 0x19, Part A 4.27.
    case creditBasedReconfigureRequest(L2CAPCreditBasedReconfigureRequest)
    /// 0x1A, Part A 4.28.
    case creditBasedReconfigureResponse(L2CAPCreditBasedReconfigureResponse)
    /// A code not parsed on LE, with its data octets as received.
    case unknown(code: L2CAPSignalingCode, data: [UInt8])

    /// Decodes the command with `code` from its data field.
    ///
    /// - Throws: ``L2CAPSignalingError`` naming the field that ran short, or trailing octets; its
    ///   offsets count from the Code octet, as if the 4-octet command header preceded `data`.
    public init(code: L2CAPSignalingCode, data: ArraySlice<UInt8>) throws(L2CAPSignalingError) {
        do {
            switch code {
            case L2CAPCommandReject.code: self = .commandReject(try L2CAPCommandReject(data: data))
            case L2CAPDisconnectionRequest.code: self = .disconnectionRequest(try L2CAPDisconnectionRequest(data: data))
            case L2CAPDisconnectionResponse.code: self = .disconnectionResponse(try L2CAPDisconnectionResponse(data: data))
            case L2CAPConnectionParameterUpdateRequest.code:
                self = .connectionParameterUpdateRequest(try L2CAPConnectionParameterUpdateRequest(data: data))
            case L2CAPConnectionParameterUpdateResponse.code:
                self = .connectionParameterUpdateResponse(try L2CAPConnectionParameterUpdateResponse(data: data))
            case L2CAPLECreditBasedConnectionRequest.code:
                self = .leCreditBasedConnectionRequest(try L2CAPLECreditBasedConnectionRequest(data: data))
            case L2CAPLECreditBasedConnectionResponse.code:
                self = .leCreditBasedConnectionResponse(try L2CAPLECreditBasedConnectionResponse(data: data))
            case L2CAPFlowControlCreditIndication.code:
                self = .flowControlCreditIndication(try L2CAPFlowControlCreditIndication(data: data))
            case L2CAPCreditBasedConnectionRequest.code:
                self = .creditBasedConnectionRequest(try L2CAPCreditBasedConnectionRequest(data: data))
            case L2CAPCreditBasedConnectionResponse.code:
                self = .creditBasedConnectionResponse(try L2CAPCreditBasedConnectionResponse(data: data))
            case L2CAPCreditBasedReconfigureRequest.code:
                self = .creditBasedReconfigureRequest(try L2CAPCreditBasedReconfigureRequest(data: data))
            case L2CAPCreditBasedReconfigureResponse.code:
                self = .creditBasedReconfigureResponse(try L2CAPCreditBasedReconfigureResponse(data: data))
            default: self = .unknown(code: code, data: Array(data))
            }
        } catch {
            throw L2CAPSignalingError(code: code, underlying: error.shifted(by: LESignalingPacket.headerLength))
        }
    }

    /// Decodes the command with `code` from its data field; see ``init(code:data:)-(_,ArraySlice<UInt8>)``.
    public init(code: L2CAPSignalingCode, data: [UInt8]) throws(L2CAPSignalingError) {
        try self.init(code: code, data: data[...])
    }

    /// The command's Code octet.
    public var code: L2CAPSignalingCode {
        switch self {
        case .commandReject: return L2CAPCommandReject.code
        case .disconnectionRequest: return L2CAPDisconnectionRequest.code
        case .disconnectionResponse: return L2CAPDisconnectionResponse.code
        case .connectionParameterUpdateRequest: return L2CAPConnectionParameterUpdateRequest.code
        case .connectionParameterUpdateResponse: return L2CAPConnectionParameterUpdateResponse.code
        case .leCreditBasedConnectionRequest: return L2CAPLECreditBasedConnectionRequest.code
        case .leCreditBasedConnectionResponse: return L2CAPLECreditBasedConnectionResponse.code
        case .flowControlCreditIndication: return L2CAPFlowControlCreditIndication.code
        case .creditBasedConnectionRequest: return L2CAPCreditBasedConnectionRequest.code
        case .creditBasedConnectionResponse: return L2CAPCreditBasedConnectionResponse.code
        case .creditBasedReconfigureRequest: return L2CAPCreditBasedReconfigureRequest.code
        case .creditBasedReconfigureResponse: return L2CAPCreditBasedReconfigureResponse.code
        case .unknown(let code, _): return code
        }
    }

    /// The command's data field, without the 4-octet command header.
    public var encodedData: [UInt8] {
        switch self {
        case .commandReject(let c): return c.encodedData
        case .disconnectionRequest(let c): return c.encodedData
        case .disconnectionResponse(let c): return c.encodedData
        case .connectionParameterUpdateRequest(let c): return c.encodedData
        case .connectionParameterUpdateResponse(let c): return c.encodedData
        case .leCreditBasedConnectionRequest(let c): return c.encodedData
        case .leCreditBasedConnectionResponse(let c): return c.encodedData
        case .flowControlCreditIndication(let c): return c.encodedData
        case .creditBasedConnectionRequest(let c): return c.encodedData
        case .creditBasedConnectionResponse(let c): return c.encodedData
        case .creditBasedReconfigureRequest(let c): return c.encodedData
        case .creditBasedReconfigureResponse(let c): return c.encodedData
        case .unknown(_, let data): return data
        }
    }

    /// Whether the command is a request that the peer must answer with the same Identifier
    /// (every *Request; a Command Reject answers one too).
    public var isRequest: Bool {
        switch self {
        case .disconnectionRequest, .connectionParameterUpdateRequest, .leCreditBasedConnectionRequest,
             .creditBasedConnectionRequest, .creditBasedReconfigureRequest:
            return true
        case .unknown(let code, _):
            return [0x02, 0x04, 0x08, 0x0A].contains(code.rawValue)
        default:
            return false
        }
    }

    /// One line for a capture decoder, units spelled out.
    public var description: String {
        switch self {
        case .commandReject(let c): return c.description
        case .disconnectionRequest(let c): return c.description
        case .disconnectionResponse(let c): return c.description
        case .connectionParameterUpdateRequest(let c): return c.description
        case .connectionParameterUpdateResponse(let c): return c.description
        case .leCreditBasedConnectionRequest(let c): return c.description
        case .leCreditBasedConnectionResponse(let c): return c.description
        case .flowControlCreditIndication(let c): return c.description
        case .creditBasedConnectionRequest(let c): return c.description
        case .creditBasedConnectionResponse(let c): return c.description
        case .creditBasedReconfigureRequest(let c): return c.description
        case .creditBasedReconfigureResponse(let c): return c.description
        case let .unknown(code, data):
            let note = code.name == nil ? "" : code.isAllowedOnLE ? "" : " (not allowed on LE)"
            let octets = data.isEmpty ? "no data" : "data \(Hex.encode(data))"
            return "\(code)\(note), \(octets)"
        }
    }
}
