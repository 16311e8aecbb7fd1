import BLECore

/// Field layouts that several PDUs share, declared once so every PDU that uses them decodes
/// and encodes them the same way.
enum ATTLayouts {
    /// Reads an attribute type that fills the rest of the PDU: a 16-bit UUID (2 octets) or a
    /// 128-bit UUID (16 octets), as in ATT_READ_BY_TYPE_REQ and ATT_READ_BY_GROUP_TYPE_REQ
    /// (Core v5.4, Vol 3, Part F, 3.4.4.1 and 3.4.4.9). 32-bit UUIDs are not allowed on ATT.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` for fewer than
    ///   2 octets, ``BLEDecodingError/invalidValue(field:offset:reason:)`` for any length
    ///   other than 2 or 16.
    static func readAttributeType(_ r: inout ByteReader, field: String) throws(BLEDecodingError) -> BluetoothUUID {
        switch r.remainingCount {
        case 2: return BluetoothUUID(try r.readUInt16(field))
        case 16: return try BluetoothUUID(from: &r, width: .bits128, field: field)
        case let n where n < 2: throw .truncated(field: field, offset: r.offset, needed: 2, available: n)
        case let n:
            throw .invalidValue(field: field, offset: r.offset,
                                reason: "\(n) octets; a 16-bit (2-octet) or 128-bit (16-octet) UUID is required")
        }
    }

    /// Writes an attribute type as a 16-bit UUID when it was made as one, else in 128 bits
    /// (a 32-bit UUID is converted, Vol 3, Part B, 2.5.1).
    static func writeAttributeType(_ type: BluetoothUUID, to w: inout ByteWriter) {
        if type.width == .bits32 { type.as128Bit.write(to: &w) } else { type.write(to: &w) }
    }

    /// Reads a set of two or more attribute handles that fills the rest of the PDU, as in
    /// ATT_READ_MULTIPLE_REQ and ATT_READ_MULTIPLE_VARIABLE_REQ ("Set Of Handles", 4 to
    /// (ATT_MTU-1) octets; 3.4.4.7 and 3.4.4.11).
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` for fewer than
    ///   two handles, ``BLEDecodingError/invalidValue(field:offset:reason:)`` for an odd length.
    static func readSetOfHandles(_ r: inout ByteReader) throws(BLEDecodingError) -> [UInt16] {
        let count = try r.fixedSizeListCount(entrySize: 2, minimumCount: 2, field: "Set Of Handles",
                                             entryName: "attribute handles")
        var handles: [UInt16] = []
        handles.reserveCapacity(count)
        for _ in 0..<count { handles.append(try r.readUInt16("Attribute Handle")) }
        return handles
    }

    /// Checks a set of handles for encoding: at least two.
    static func checkSetOfHandles(_ handles: [UInt16], opcode: ATTOpcode) throws(ATTEncodingError) {
        guard handles.count >= 2 else {
            throw ATTEncodingError(opcode: opcode, field: "Set Of Handles",
                                   reason: "holds \(handles.count) handle\(handles.count == 1 ? "" : "s"); two or more are required")
        }
    }

    /// The field list for a set of handles: a list of single "handle" fields.
    static func handleList(_ handles: [UInt16]) -> ATTFieldValue {
        .list(handles.map { [ATTField("handle", .integer(Int($0)))] })
    }
}
