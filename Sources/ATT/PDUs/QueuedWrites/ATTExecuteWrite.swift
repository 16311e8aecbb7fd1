import BLECore

/// ATT_EXECUTE_WRITE_REQ, opcode 0x18 (Core v5.4, Vol 3, Part F, 3.4.6.3): write, or cancel,
/// every prepared value in the client's queue, atomically.
///
/// | Attribute Opcode | Flags |
/// |---|---|
/// | 1 octet (0x18) | 1 octet: 0x00 cancel all prepared writes, 0x01 write all pending values |
///
/// Flags values other than 0x00 and 0x01 are not defined (Table 3.36). The codec keeps
/// them raw rather than failing: the PDU's shape is intact, a capture should show what was
/// sent, and a server answers it as an invalid request, ATT_ERROR_RSP with Invalid PDU (0x04)
/// (3.3), after checking ``Flags/isDefined``.
public struct ATTExecuteWriteRequest: ATTPDUCodable {
    /// Answered by ATT_EXECUTE_WRITE_RSP.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .executeWriteRequest, name: "Execute Write Request", pduName: "ATT_EXECUTE_WRITE_REQ", kind: .request,
        response: .executeWriteResponse, case: ATTPDU.executeWriteRequest)

    /// The Flags parameter (Table 3.36). Unknown values are kept raw.
    public struct Flags: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
        /// The octet as transmitted.
        public let rawValue: UInt8
        /// Flags from their octet; every value is accepted and kept.
        public init(rawValue: UInt8) { self.rawValue = rawValue }

        /// 0x00: cancel all prepared writes (discard the queue).
        public static let cancelAllPreparedWrites = Flags(rawValue: 0x00)
        /// 0x01: immediately write all pending prepared values, in the order received.
        public static let immediatelyWriteAllPendingPreparedValues = Flags(rawValue: 0x01)

        /// Whether the value is 0x00 or 0x01, the only ones the specification defines.
        public var isDefined: Bool { rawValue <= 0x01 }

        /// "cancel all prepared writes", "write all pending prepared values", or "flags 0x05 (undefined)".
        public var description: String {
            switch rawValue {
            case 0x00: return "cancel all prepared writes"
            case 0x01: return "write all pending prepared values"
            default: return "flags \(ATTText.hex8(rawValue)) (undefined)"
            }
        }
    }

    /// Flags: whether to write or cancel the queue.
    public var flags: Flags

    /// A request that applies `flags` to the prepare queue.
    public init(flags: Flags) { self.flags = flags }
}

extension ATTExecuteWriteRequest: ATTPDUBody {
    init() { self.init(flags: .cancelAllPreparedWrites) }

    /// "write all pending prepared values"; undefined flags are kept raw.
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.code(&flags, .flags)
    }
}

extension ATTExecuteWriteRequest.Flags: ATTCodedValue {
    /// What the flags do: "write all pending prepared values".
    var summaryText: String { description }
    /// What the flags do: "write all pending prepared values".
    var nameText: String { description }
}

/// ATT_EXECUTE_WRITE_RSP, opcode 0x19 (Core v5.4, Vol 3, Part F, 3.4.6.4): the prepared
/// values were written (or discarded).
///
/// | Attribute Opcode |
/// |---|
/// | 1 octet (0x19) |
public struct ATTExecuteWriteResponse: ATTPDUCodable {
    /// Answers ATT_EXECUTE_WRITE_REQ.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .executeWriteResponse, name: "Execute Write Response", pduName: "ATT_EXECUTE_WRITE_RSP",
        kind: .response, case: ATTPDU.executeWriteResponse)

    /// The response; it has no parameters.
    public init() {}
}

extension ATTExecuteWriteResponse: ATTPDUBody {
    /// No parameters.
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {}
}
