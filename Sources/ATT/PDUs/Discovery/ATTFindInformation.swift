import BLECore

/// ATT_FIND_INFORMATION_REQ, opcode 0x04 (Core v5.4, Vol 3, Part F, 3.4.3.1): the handles
/// and types of the attributes in a handle range.
///
/// | Attribute Opcode | Starting Handle | Ending Handle |
/// |---|---|---|
/// | 1 octet (0x04) | 2 octets | 2 octets |
///
/// A range with Starting Handle 0x0000 or Starting Handle > Ending Handle is well formed; the
/// server answers it with Invalid Handle (0x01) (3.4.3.1), so the codec keeps it.
public struct ATTFindInformationRequest: ATTPDUCodable {
    /// Answered by ATT_FIND_INFORMATION_RSP.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .findInformationRequest, name: "Find Information Request", pduName: "ATT_FIND_INFORMATION_REQ",
        kind: .request, response: .findInformationResponse, case: ATTPDU.findInformationRequest)

    /// Starting Handle: the first requested handle.
    public var startingHandle: UInt16
    /// Ending Handle: the last requested handle.
    public var endingHandle: UInt16

    /// A request for the handles `startingHandle...endingHandle` (0x0001...0xFFFF for all).
    public init(startingHandle: UInt16, endingHandle: UInt16) {
        self.startingHandle = startingHandle
        self.endingHandle = endingHandle
    }
}

extension ATTFindInformationRequest: ATTPDUBody {
    init() { self.init(startingHandle: 0, endingHandle: 0) }

    /// "0x0001..0xffff".
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.handle(&startingHandle, .startingHandle)
        try c.handle(&endingHandle, .endingHandle)
    }
}

/// ATT_FIND_INFORMATION_RSP, opcode 0x05 (Core v5.4, Vol 3, Part F, 3.4.3.2): handle-UUID
/// pairs, all with UUIDs of one width.
///
/// | Attribute Opcode | Format | Information Data |
/// |---|---|---|
/// | 1 octet (0x05) | 1 octet: 0x01 or 0x02 | 4 to (ATT_MTU-2) octets |
///
/// Format 0x01: pairs of Handle (2) and 16-bit Bluetooth UUID (2); format 0x02: pairs of
/// Handle (2) and 128-bit UUID (16) (Tables 3.9 to 3.11). There is at least one pair, and
/// pairs are never split.
public struct ATTFindInformationResponse: ATTPDUCodable {
    /// Answers ATT_FIND_INFORMATION_REQ.
    public static let declaration = ATTPDUDeclaration<Self>(
        opcode: .findInformationResponse, name: "Find Information Response", pduName: "ATT_FIND_INFORMATION_RSP",
        kind: .response, case: ATTPDU.findInformationResponse)

    /// The Format parameter (Table 3.9): the width of every UUID in the Information Data.
    /// Only two values are defined; any other makes the PDU malformed.
    public enum Format: UInt8, Hashable, Sendable, CaseIterable {
        /// 0x01: handles with 16-bit Bluetooth UUIDs (4-octet pairs).
        case uuid16 = 0x01
        /// 0x02: handles with 128-bit UUIDs (18-octet pairs).
        case uuid128 = 0x02

        /// The octets one handle-UUID pair takes: 4 or 18.
        public var pairLength: Int { self == .uuid16 ? 4 : 18 }
    }

    /// One handle-UUID pair of the Information Data (Tables 3.10 and 3.11).
    public struct Information: Hashable, Sendable {
        /// Handle: the attribute's handle.
        public var handle: UInt16
        /// The attribute type.
        public var type: BluetoothUUID

        /// The pair `handle`, `type`.
        public init(handle: UInt16, type: BluetoothUUID) {
            self.handle = handle
            self.type = type
        }
    }

    /// Format: the width of every UUID in ``information``.
    public private(set) var format: Format
    /// Information Data: one or more handle-UUID pairs, in ascending handle order.
    public private(set) var information: [Information]

    /// A response in `format`.
    ///
    /// With ``Format/uuid16`` every type must have a 16-bit alias (``BluetoothUUID/uuid16``);
    /// with ``Format/uuid128`` every type is written in its 128-bit form (a server may convert
    /// a 16-bit UUID to 128 bits to fit it in the response, 3.4.3.2), and decodes back as a
    /// 128-bit UUID.
    ///
    /// - Throws: ``ATTEncodingError`` for an empty list or a type without a 16-bit alias in
    ///   format 0x01.
    public init(format: Format, information: [Information]) throws(ATTEncodingError) {
        guard !information.isEmpty else {
            throw ATTEncodingError(opcode: Self.opcode, .informationData, "needs at least one handle-UUID pair")
        }
        if format == .uuid16, let bad = information.firstIndex(where: { $0.type.uuid16 == nil }) {
            throw ATTEncodingError(opcode: Self.opcode, .informationData,
                                   "pair \(bad) has type \(information[bad].type), which has no 16-bit form")
        }
        self.format = format
        self.information = format == .uuid16
            ? information.map { Information(handle: $0.handle, type: $0.type.shortest) }
            : information.map { Information(handle: $0.handle, type: $0.type.as128Bit) }
    }
}

extension ATTFindInformationResponse: ATTPDUBody {
    init() {
        format = .uuid16
        information = []
    }

    /// "16-bit 0x0001 2800 (Primary Service), 0x0002 2803 (Characteristic)": Format (0x01 or
    /// 0x02), then the handle-UUID pairs of its width, filling the PDU.
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        var code = FormatCode(rawValue: format.rawValue)
        let formatOffset = c.offset
        try c.code(&code, .format)
        let decoded = Format(rawValue: code.rawValue)
        try c.check(decoded != nil, .format, offset: formatOffset,
                    "\(ATTText.hex8(code.rawValue)) is not 0x01 (16-bit UUIDs) or 0x02 (128-bit UUIDs)")
        format = decoded ?? format
        try c.list(&information, .informationData, entrySize: format.pairLength, minimumCount: 1)
    }

    /// The Format octet as the summary prints it: "16-bit" or "128-bit".
    struct FormatCode: ATTCodedValue {
        let rawValue: UInt8
        init(rawValue: UInt8) { self.rawValue = rawValue }
        var summaryText: String { rawValue == Format.uuid16.rawValue ? "16-bit" : "128-bit" }
        var nameText: String { summaryText }
    }
}

extension ATTFindInformationResponse.Information: ATTLayout {
    init() { self.init(handle: 0, type: BluetoothUUID(UInt16(0))) }

    /// Handle (2), UUID (the rest of the pair: 2 or 16 octets, as Format says).
    @inline(never)
    mutating func layout<C: ATTFieldCoder>(_ c: inout C) throws(BLEDecodingError) {
        try c.handle(&handle, .handle)
        try c.uuid(&type, .uuid)
    }
}
