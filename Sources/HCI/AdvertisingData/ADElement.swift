import BLECore

/// One AD structure as found in a payload: where it is, its octets as received, its diagnostic
/// if it is malformed, and its decoded value on demand (Core v5.4, Vol 3, Part C, 11).
///
/// Elements are made by ``AdvertisingData``; together they cover every octet of the payload's
/// significant part, each exactly once, in order.
public struct ADElement: Hashable, Sendable, CustomStringConvertible {
    /// The payload offset of the structure's Length octet.
    public let offset: Int
    /// The Length octet: how many octets of AD type and AD data the structure declares.
    public let length: UInt8
    /// The AD type; nil only when the payload ends right after the Length octet.
    public let type: ADType?
    /// The octets of the payload this element covers, as received: the Length octet, the AD
    /// type, and the AD data (cut at the payload's end when the structure runs past it).
    ///
    /// A slice of the payload: its indices are payload offsets (`octets.startIndex == offset`).
    public let octets: ArraySlice<UInt8>
    /// What is wrong with this structure; nil when it is well formed.
    public let diagnostic: ADDiagnostic?

    init(offset: Int, length: UInt8, type: ADType?, octets: ArraySlice<UInt8>, diagnostic: ADDiagnostic?) {
        self.offset = offset
        self.length = length
        self.type = type
        self.octets = octets
        self.diagnostic = diagnostic
    }

    /// The AD data as received (Length - 1 octets, or fewer when the structure runs past the end
    /// of the payload). Indices are payload offsets (`data.startIndex == offset + 2`).
    public var data: ArraySlice<UInt8> { octets.dropFirst(2) }

    /// The octets of the payload this element covers: 1 + ``length``, or fewer when cut at the end.
    public var extent: Int { octets.count }

    /// The structure decoded as its AD type, computed on each access (decoding is deferred so a
    /// scan pays only for what it reads).
    ///
    /// - Returns: the typed value when the structure is well formed; for a list with a partial
    ///   last entry, the whole entries (``diagnostic`` says what was left over); nil when the
    ///   structure runs past the payload, has a length its type does not allow, or has no AD type.
    ///   The raw ``octets`` are there in every case.
    public var structure: ADStructure? {
        guard let type else { return nil }
        if let diagnostic {
            guard case .partialTrailingEntry = diagnostic.reason else { return nil }
        }
        return ADStructure(type: type, data: data)
    }

    /// The structure's description, or the raw octets and the diagnostic when it is malformed.
    public var description: String {
        var out = TextOutput(capacity: 64)
        writeDescription(to: &out)
        return out.string
    }

    /// Appends ``description`` to `out`. A well-formed structure of the types advertisers send
    /// most is written from its octets, without its typed value (``structure``): the text is
    /// the typed value's, by the same functions.
    public func writeDescription(to out: inout TextOutput) {
        if diagnostic == nil, let type, writeWellFormed(type: type, to: &out) { return }
        switch (structure, diagnostic) {
        case (let s?, nil):
            s.writeDescription(to: &out)
        case (let s?, let d?):
            s.writeDescription(to: &out)
            out.write(" [")
            out.write(string: d.description)
            out.write(octet: UInt8(ascii: "]"))
        case (nil, let d?):
            out.write(octet: UInt8(ascii: "["))
            out.write(string: d.description)
            out.write("; octets ")
            out.writeHex(octets, separator: " ")
            out.write(octet: UInt8(ascii: "]"))
        case (nil, nil):
            out.write("[octets ")
            out.writeHex(octets, separator: " ")
            out.write(octet: UInt8(ascii: "]"))
        }
    }

    /// Writes the description of a well-formed structure of `type` straight from its AD data, as
    /// ``ADStructure/init(type:data:)`` would decode it and ``ADStructure/writeDescription(to:)``
    /// print it: Flags, service UUID and solicitation lists, local names, Tx Power Level, Service
    /// Data, Manufacturer Specific Data.
    ///
    /// - Returns: false, writing nothing, for any other type (the caller decodes it).
    private func writeWellFormed(type: ADType, to out: inout TextOutput) -> Bool {
        let raw = type.rawValue
        switch raw {
        case 0x01...0x0A, 0x14, 0x15, 0x16, 0x1F, 0x20, 0x21, 0xFF: break
        default: return false
        }
        return octets.withUnsafeBufferPointer { element -> Bool in
            let data = UnsafeBufferPointer(rebasing: element[2...])
            switch raw {
            case 0x01:
                guard data.count == 1 else {
                    ADStructure.writeOther(type: type, data: data, to: &out)
                    return true
                }
                out.write("Flags ")
                ADFlags(rawValue: data[0]).writeDescription(to: &out)
            case 0x02...0x07:
                let width: BluetoothUUID.Width = raw <= 0x03 ? .bits16 : raw <= 0x05 ? .bits32 : .bits128
                if raw & 1 == 0 { out.write("Incomplete ") }
                Self.writeUUIDList(data: data, width: width, to: &out)
            case 0x14, 0x1F, 0x15:
                out.write("Solicited ")
                Self.writeUUIDList(data: data, width: raw == 0x14 ? .bits16 : raw == 0x1F ? .bits32 : .bits128, to: &out)
            case 0x08, 0x09:
                out.write(raw == 0x09 ? "Complete Local Name " : "Shortened Local Name ")
                ADLocalName.writeDescription(bytes: data, to: &out)
            case 0x0A:
                guard data.count == 1 else { return false }
                ADStructure.writeTxPowerLevel(Int8(bitPattern: data[0]), to: &out)
            case 0x16, 0x20, 0x21:
                let size: BluetoothUUID.Width = raw == 0x16 ? .bits16 : raw == 0x20 ? .bits32 : .bits128
                guard data.count >= size.rawValue,
                      let uuid = BluetoothUUID(littleEndianOctets: octets[(offset + 2)..<(offset + 2 + size.rawValue)]) else { return false }
                out.write("Service Data ")
                ADServiceData.writeDescription(uuid: uuid, data: UnsafeBufferPointer(rebasing: data[size.rawValue...]), to: &out)
            default:
                guard data.count >= 2 else { return false }
                out.write("Manufacturer Specific Data ")
                ADManufacturerSpecificData.writeDescription(companyIdentifier: UInt16(data[0]) | UInt16(data[1]) << 8,
                                                            data: UnsafeBufferPointer(rebasing: data[2...]), to: &out)
            }
            return true
        }
    }

    /// "16-bit UUIDs 180D (Heart Rate)": the width, then the list's whole entries.
    private static func writeUUIDList(data: UnsafeBufferPointer<UInt8>, width: BluetoothUUID.Width, to out: inout TextOutput) {
        out.write(ADUUIDList.widthName(width))
        out.write(" UUIDs ")
        ADUUIDList.writeDescription(data: data, width: width, to: &out)
    }
}
