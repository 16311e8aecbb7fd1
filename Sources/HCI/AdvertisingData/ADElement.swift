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
        var text = ""
        appendDescription(to: &text)
        return text
    }

    /// Appends ``description`` to `text`, without a string of its own for a well-formed structure.
    public func appendDescription(to text: inout String) {
        let decoded = structure
        switch (decoded, diagnostic) {
        case (let s?, nil): s.appendDescription(to: &text)
        case (let s?, let d?): text += "\(s) [\(d)]"
        case (nil, let d?): text += "[\(d); octets \(Hex.encode(octets, separator: " "))]"
        case (nil, nil): text += "[octets \(Hex.encode(octets, separator: " "))]"
        }
    }
}
