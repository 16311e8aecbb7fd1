import BLECore

/// A Per-Packet Information header (LINKTYPE_PPI, 192; CACE Technologies' PPI specification
/// 1.0.2): a small header, optional typed fields, then a packet of the link type it names.
///
/// Layout, little-endian: pph_version (1, 0), pph_flags (1; bit 0: fields are 32-bit aligned),
/// pph_len (2, the header's length including the fields), pph_dlt (4, the enclosed packet's
/// link type), then pph_len - 8 octets of fields, each field type (2), field length (2), data.
/// The field octets are kept as stored so the header re-encodes exactly.
public struct PPIHeader: Hashable, Sendable {
    /// One field of the header.
    public struct Field: Hashable, Sendable {
        /// pfh_type: for example 30006, the PPI-BTLE field Ubertooth writes (version, channel
        /// in MHz, clock, RSSI minimum, maximum, average, count).
        public var type: UInt16
        /// pfh_datalen octets of field data.
        public var data: [UInt8]
    }

    /// pph_version, 0 in every known file.
    public var version: UInt8
    /// pph_flags; bit 0 set means the fields are padded to 32-bit boundaries.
    public var flags: UInt8
    /// pph_dlt: the link type of the packet after the header.
    public var dlt: LinkType
    /// The fields' octets, exactly as stored (pph_len - 8 octets).
    public var fieldOctets: [UInt8]

    /// A PPI header; pph_len follows from `fieldOctets`.
    public init(version: UInt8 = 0, flags: UInt8 = 0, dlt: LinkType, fieldOctets: [UInt8] = []) {
        self.version = version
        self.flags = flags
        self.dlt = dlt
        self.fieldOctets = fieldOctets
    }

    /// pph_len: 8 plus the field octets.
    public var length: Int { 8 + fieldOctets.count }

    /// Reads the header and its fields.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` when the header
    ///   or its fields are short; ``BLEDecodingError/invalidValue(field:offset:reason:)`` when
    ///   pph_len is below the 8-octet header itself.
    public init(from r: inout ByteReader) throws(BLEDecodingError) {
        version = try r.readUInt8("pph_version")
        flags = try r.readUInt8("pph_flags")
        let lengthOffset = r.offset
        let length = try r.readUInt16("pph_len")
        dlt = LinkType(rawValue: try r.readUInt32("pph_dlt"))
        guard length >= 8 else {
            throw .invalidValue(field: "pph_len", offset: lengthOffset, reason: "\(length) is shorter than the 8-octet header")
        }
        fieldOctets = try r.readBytes(Int(length) - 8, "PPI fields")
    }

    /// Appends the header and its field octets.
    public func write(to w: inout ByteWriter) {
        w.writeUInt8(version)
        w.writeUInt8(flags)
        w.writeUInt16(UInt16(truncatingIfNeeded: length))
        w.writeUInt32(dlt.rawValue)
        w.writeBytes(fieldOctets)
    }

    /// The fields, in order. A field whose length runs past the header ends the list (the
    /// octets stay in ``fieldOctets``).
    public var fields: [Field] {
        var out: [Field] = []
        var r = ByteReader(fieldOctets)
        while r.remainingCount >= 4 {
            guard let type = try? r.readUInt16("pfh_type"), let count = try? r.readUInt16("pfh_datalen"),
                  let data = try? r.readBytes(Int(count), "field data") else { break }
            out.append(Field(type: type, data: data))
            if flags & 0x01 != 0 {
                let pad = (4 - (4 + Int(count)) % 4) % 4
                if (try? r.skip(min(pad, r.remainingCount), "padding")) == nil { break }
            }
        }
        return out
    }
}
