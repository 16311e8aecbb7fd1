import BLECore

/// ATT_READ_MULTIPLE_REQ, opcode 0x0E (Core v5.4, Vol 3, Part F, 3.4.4.7): read two or more
/// attributes whose values have known fixed sizes (the last may vary).
///
/// | Attribute Opcode | Set Of Handles |
/// |---|---|
/// | 1 octet (0x0E) | 4 to (ATT_MTU-1) octets: two or more handles, 2 octets each |
///
/// The handles are in the order the values are wanted, not necessarily handle order.
public struct ATTReadMultipleRequest: ATTPDUCodable {
    /// Answered by ATT_READ_MULTIPLE_RSP.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .readMultipleRequest, name: "Read Multiple Request", pduName: "ATT_READ_MULTIPLE_REQ", kind: .request,
        response: .readMultipleResponse, case: ATTPDU.readMultipleRequest)

    /// Set Of Handles: two or more attribute handles.
    public private(set) var setOfHandles: [UInt16]

    /// A request to read the attributes at `setOfHandles`, in that order.
    ///
    /// - Throws: ``ATTEncodingError`` for fewer than two handles.
    public init(setOfHandles: [UInt16]) throws(ATTEncodingError) {
        try ATTEncodingError.checkSetOfHandles(setOfHandles, opcode: Self.opcode)
        self.setOfHandles = setOfHandles
    }
}

extension ATTReadMultipleRequest: ATTPDUBody {
    init() { setOfHandles = [] }

    /// "handles 0x0003, 0x0005": two or more 2-octet handles filling the PDU.
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.handles(&setOfHandles, .setOfHandles, element: .attributeHandle, minimumCount: 2)
    }
}

/// ATT_READ_MULTIPLE_RSP, opcode 0x0F (Core v5.4, Vol 3, Part F, 3.4.4.8): the requested
/// values, concatenated.
///
/// | Attribute Opcode | Set Of Values |
/// |---|---|
/// | 1 octet (0x0F) | 0 to (ATT_MTU-1) octets |
///
/// The PDU carries no lengths: splitting the values needs the sizes a higher layer knows.
/// A set longer than ATT_MTU-1 arrives cut to ATT_MTU-1.
public struct ATTReadMultipleResponse: ATTPDUCodable {
    /// Answers ATT_READ_MULTIPLE_REQ.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .readMultipleResponse, name: "Read Multiple Response", pduName: "ATT_READ_MULTIPLE_RSP",
        kind: .response, case: ATTPDU.readMultipleResponse)

    /// Set Of Values: the values in request order, concatenated; never interpreted.
    public var setOfValues: [UInt8]

    /// A response carrying `setOfValues`.
    public init(setOfValues: [UInt8]) { self.setOfValues = setOfValues }
}

extension ATTReadMultipleResponse: ATTPDUBody {
    init() { self.init(setOfValues: []) }

    /// "values 0102ff"; never fails to decode.
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.remaining(&setOfValues, .setOfValues)
    }
}

/// ATT_READ_MULTIPLE_VARIABLE_REQ, opcode 0x20 (Core v5.4, Vol 3, Part F, 3.4.4.11): read
/// two or more attributes of variable or unknown length.
///
/// | Attribute Opcode | Set Of Handles |
/// |---|---|
/// | 1 octet (0x20) | 4 to (ATT_MTU-1) octets: two or more handles, 2 octets each |
public struct ATTReadMultipleVariableRequest: ATTPDUCodable {
    /// Answered by ATT_READ_MULTIPLE_VARIABLE_RSP.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .readMultipleVariableRequest, name: "Read Multiple Variable Request",
        pduName: "ATT_READ_MULTIPLE_VARIABLE_REQ", kind: .request, response: .readMultipleVariableResponse,
        case: ATTPDU.readMultipleVariableRequest)

    /// Set Of Handles: two or more attribute handles, in the order the values are wanted.
    public private(set) var setOfHandles: [UInt16]

    /// A request to read the attributes at `setOfHandles`, in that order.
    ///
    /// - Throws: ``ATTEncodingError`` for fewer than two handles.
    public init(setOfHandles: [UInt16]) throws(ATTEncodingError) {
        try ATTEncodingError.checkSetOfHandles(setOfHandles, opcode: Self.opcode)
        self.setOfHandles = setOfHandles
    }
}

extension ATTReadMultipleVariableRequest: ATTPDUBody {
    init() { setOfHandles = [] }

    /// "handles 0x0003, 0x0005": two or more 2-octet handles filling the PDU.
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.handles(&setOfHandles, .setOfHandles, element: .attributeHandle, minimumCount: 2)
    }
}
