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
    /// The Attribute Opcode of this PDU, ``ATTOpcode/findInformationRequest``.
    public static let opcode = ATTOpcode.findInformationRequest

    /// Starting Handle: the first requested handle.
    public var startingHandle: UInt16
    /// Ending Handle: the last requested handle.
    public var endingHandle: UInt16

    /// A request for the handles `startingHandle...endingHandle` (0x0001...0xFFFF for all).
    public init(startingHandle: UInt16, endingHandle: UInt16) {
        self.startingHandle = startingHandle
        self.endingHandle = endingHandle
    }

    /// Reads Starting Handle (2), Ending Handle (2).
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` naming the short field.
    public init(parameters r: inout ByteReader) throws(BLEDecodingError) {
        startingHandle = try r.readUInt16("Starting Handle")
        endingHandle = try r.readUInt16("Ending Handle")
    }

    /// Appends the parameters in the order of the table above, without the opcode.
    public func encodeParameters(to w: inout ByteWriter) {
        w.writeUInt16(startingHandle)
        w.writeUInt16(endingHandle)
    }

    /// starting_handle, ending_handle (integers).
    public var fields: [ATTField] {
        [ATTField("starting_handle", .integer(Int(startingHandle))),
         ATTField("ending_handle", .integer(Int(endingHandle)))]
    }

    /// "0x0001..0xffff".
    public var parameterSummary: String { ATTText.range(startingHandle, endingHandle) }
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
    /// The Attribute Opcode of this PDU, ``ATTOpcode/findInformationResponse``.
    public static let opcode = ATTOpcode.findInformationResponse

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
            throw ATTEncodingError(opcode: Self.opcode, field: "Information Data", reason: "needs at least one handle-UUID pair")
        }
        if format == .uuid16, let bad = information.firstIndex(where: { $0.type.uuid16 == nil }) {
            throw ATTEncodingError(opcode: Self.opcode, field: "Information Data",
                                   reason: "pair \(bad) has type \(information[bad].type), which has no 16-bit form")
        }
        self.format = format
        self.information = format == .uuid16
            ? information.map { Information(handle: $0.handle, type: $0.type.shortest) }
            : information.map { Information(handle: $0.handle, type: $0.type.as128Bit) }
    }

    /// Reads Format (1), then the Information Data: every remaining octet, in pairs of the
    /// Format's length.
    ///
    /// - Throws: ``BLEDecodingError/invalidValue(field:offset:reason:)`` for a Format other
    ///   than 0x01 or 0x02, or Information Data that is not a whole number of pairs;
    ///   ``BLEDecodingError/truncated(field:offset:needed:available:)`` when there is no pair.
    public init(parameters r: inout ByteReader) throws(BLEDecodingError) {
        let formatOffset = r.offset
        let raw = try r.readUInt8("Format")
        guard let format = Format(rawValue: raw) else {
            throw .invalidValue(field: "Format", offset: formatOffset,
                                reason: "\(ATTText.hex8(raw)) is not 0x01 (16-bit UUIDs) or 0x02 (128-bit UUIDs)")
        }
        let count = try r.fixedSizeListCount(entrySize: format.pairLength, minimumCount: 1,
                                             field: "Information Data", entryName: "handle-UUID pairs")
        var information: [Information] = []
        information.reserveCapacity(count)
        let width: BluetoothUUID.Width = format == .uuid16 ? .bits16 : .bits128
        for _ in 0..<count {
            let handle = try r.readUInt16("Handle")
            let type = try BluetoothUUID(from: &r, width: width, field: "UUID")
            information.append(Information(handle: handle, type: type))
        }
        self.format = format
        self.information = information
    }

    /// Appends the parameters in the order of the table above, without the opcode.
    public func encodeParameters(to w: inout ByteWriter) {
        w.writeUInt8(format.rawValue)
        for pair in information {
            w.writeUInt16(pair.handle)
            pair.type.write(to: &w)
        }
    }

    /// format (integer), information (list of handle, uuid).
    public var fields: [ATTField] {
        [ATTField("format", .integer(Int(format.rawValue))),
         ATTField("information", .list(information.map {
             [ATTField("handle", .integer(Int($0.handle))), ATTField("uuid", .uuid($0.type))]
         }))]
    }

    /// "16-bit 0x0001 2800 (Primary Service), 0x0002 2803 (Characteristic)".
    public var parameterSummary: String {
        (format == .uuid16 ? "16-bit " : "128-bit ")
            + information.map { "\(Hex.hex16($0.handle)) \($0.type.descriptionWithName)" }.joined(separator: ", ")
    }
}
