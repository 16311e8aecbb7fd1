import BLECore

/// ATT_EXCHANGE_MTU_REQ, opcode 0x02 (Core v5.4, Vol 3, Part F, 3.4.2.1): the client's
/// maximum receive MTU.
///
/// | Attribute Opcode | Client Rx MTU |
/// |---|---|
/// | 1 octet (0x02) | 2 octets, in octets |
///
/// The value "shall be greater than or equal to the default ATT_MTU" (23 on LE), but a smaller
/// one is not malformed: both sides then keep the default ATT_MTU (3.4.2.2). The codec keeps
/// whatever was sent; see ``isBelowDefault``.
public struct ATTExchangeMTURequest: ATTPDUCodable {
    /// Answered by ATT_EXCHANGE_MTU_RSP.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .exchangeMTURequest, name: "Exchange MTU Request", pduName: "ATT_EXCHANGE_MTU_REQ", kind: .request,
        response: .exchangeMTUResponse, case: ATTPDU.exchangeMTURequest)

    /// Client Rx MTU: the largest ATT PDU the client can receive, in octets.
    public var clientRxMTU: UInt16

    /// A request announcing `clientRxMTU` octets.
    public init(clientRxMTU: UInt16) { self.clientRxMTU = clientRxMTU }

    /// Whether Client Rx MTU is below the LE default ATT_MTU of 23 octets (Vol 3, Part G, 5.2.1),
    /// in which case the ATT_MTU stays at the default (3.4.2.2).
    public var isBelowDefault: Bool { clientRxMTU < ATTExchangeMTUResponse.defaultLEMTU }
}

extension ATTExchangeMTURequest: ATTPDUBody {
    init() { self.init(clientRxMTU: 0) }

    /// "Client Rx MTU 517".
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.integer(&clientRxMTU, .clientRxMTU)
    }
}

/// ATT_EXCHANGE_MTU_RSP, opcode 0x03 (Core v5.4, Vol 3, Part F, 3.4.2.2): the server's
/// maximum receive MTU.
///
/// | Attribute Opcode | Server Rx MTU |
/// |---|---|
/// | 1 octet (0x03) | 2 octets, in octets |
///
/// Both sides then use ATT_MTU = min(Client Rx MTU, Server Rx MTU), or the default if either
/// is below it (3.4.2.2); see ``effectiveMTU(clientRxMTU:)``.
public struct ATTExchangeMTUResponse: ATTPDUCodable {
    /// Answers ATT_EXCHANGE_MTU_REQ.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .exchangeMTUResponse, name: "Exchange MTU Response", pduName: "ATT_EXCHANGE_MTU_RSP", kind: .response,
        case: ATTPDU.exchangeMTUResponse)

    /// The default ATT_MTU on an LE bearer: 23 octets (Vol 3, Part G, 5.2.1).
    public static let defaultLEMTU: UInt16 = 23

    /// Server Rx MTU: the largest ATT PDU the server can receive, in octets.
    public var serverRxMTU: UInt16

    /// A response announcing `serverRxMTU` octets.
    public init(serverRxMTU: UInt16) { self.serverRxMTU = serverRxMTU }

    /// The ATT_MTU both sides apply after this exchange, in octets: the minimum of the two Rx
    /// MTUs, or the default (23) if either is below the default (3.4.2.2).
    public func effectiveMTU(clientRxMTU: UInt16) -> UInt16 {
        guard clientRxMTU >= Self.defaultLEMTU, serverRxMTU >= Self.defaultLEMTU else { return Self.defaultLEMTU }
        return min(clientRxMTU, serverRxMTU)
    }
}

extension ATTExchangeMTUResponse: ATTPDUBody {
    init() { self.init(serverRxMTU: 0) }

    /// "Server Rx MTU 247".
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.integer(&serverRxMTU, .serverRxMTU)
    }
}
