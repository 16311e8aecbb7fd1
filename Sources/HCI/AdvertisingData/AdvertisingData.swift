import BLECore

/// An advertising-data or scan-response-data payload: a sequence of AD structures
/// (Core v5.4, Vol 3, Part C, 11; Vol 4, Part E, 7.7.65.2 and 7.7.65.13).
///
/// Decoding follows the rules of the specification and never throws:
/// - a structure's extent comes from its Length octet alone;
/// - a Length of 0 ends the significant part; the octets from there on are padding (normally
///   zero, not checked) and are kept in ``bytes`` but form no structure;
/// - a structure that runs past the payload, a list that is not a whole number of entries, or
///   an AD data length its type does not allow gets an ``ADDiagnostic``; its raw octets and
///   every other structure are kept.
///
/// Advertising data and scan-response data are separate payloads: decode each on its own.
/// ``Advertisement`` keeps the two side by side.
///
/// ```swift
/// let ad = AdvertisingData(decoding: report.data)
/// ad.localName?.string        // "ABCD"
/// ad.serviceUUIDs             // [180D]
/// ad.diagnostics              // [] when well formed
/// ```
public struct AdvertisingData: Hashable, Sendable, CustomStringConvertible {
    /// The payload's octets, exactly as received (or as encoded), padding included.
    public let bytes: [UInt8]
    /// The AD structures of the significant part, in payload order. Their ``ADElement/extent``s
    /// add up to ``significantLength``.
    public let elements: [ADElement]
    /// The offset of the zero Length octet that ended the significant part; nil when the
    /// structures run to the end of the payload.
    public let terminatorOffset: Int?

    /// The largest payload of a legacy advertising or scan-response PDU: 31 octets
    /// (Core v5.4, Vol 6, Part B, 2.3.1; Vol 4, Part E, 7.8.7).
    public static let legacyMaximumLength = 31
    /// The largest extended advertising or scan-response data: 1650 octets
    /// (Core v5.4, Vol 4, Part E, 7.7.65.13; Vol 6, Part B, 2.3.4.9).
    public static let extendedMaximumLength = 1650

    /// A payload with no structures.
    public static let empty = AdvertisingData(decoding: [])

    /// Decodes a payload. Never throws and never traps: faults become diagnostics on the
    /// structures they concern.
    public init(decoding bytes: [UInt8]) {
        self.bytes = bytes
        // First pass: count the structures, so the element array is allocated once.
        var count = 0
        var i = 0
        let n = bytes.count
        while i < n {
            let length = Int(bytes[i])
            if length == 0 { break }
            count += 1
            i += 1 + length
        }
        var elements: [ADElement] = []
        elements.reserveCapacity(count)
        var terminator: Int? = nil
        i = 0
        while i < n {
            let length = Int(bytes[i])
            if length == 0 { terminator = i; break }
            let available = n - i - 1
            let end = available >= length ? i + 1 + length : n
            let type: ADType? = available >= 1 ? ADType(rawValue: bytes[i + 1]) : nil
            let diagnostic: ADDiagnostic?
            if available < length {
                diagnostic = ADDiagnostic(offset: i, type: type, reason: .runsPastEnd(declared: length, available: available))
            } else if let type {
                diagnostic = Self.check(type: type, offset: i, data: bytes[(i + 2)..<end])
            } else {
                diagnostic = nil
            }
            elements.append(ADElement(offset: i, length: UInt8(truncatingIfNeeded: length), type: type,
                                      octets: bytes[i..<end], diagnostic: diagnostic))
            i = end
        }
        self.elements = elements
        self.terminatorOffset = terminator
    }

    /// Decodes a payload given as a slice (for example the Data of an HCI event read in place).
    public init(decoding bytes: ArraySlice<UInt8>) {
        self.init(decoding: Array(bytes))
    }

    /// The payload made of `structures`, in order, with no padding.
    ///
    /// - Throws: ``ADEncodingError/dataTooLong(type:index:count:)`` when a structure has more
    ///   than 254 AD data octets. The result may still be longer than a legacy PDU allows:
    ///   check ``encodedLength`` against ``legacyMaximumLength`` before advertising it.
    public init(structures: [ADStructure]) throws(ADEncodingError) {
        var total = 0
        for (index, s) in structures.enumerated() {
            let count = s.dataCount
            guard count <= ADStructure.maximumDataCount else {
                throw .dataTooLong(type: s.type, index: index, count: count)
            }
            total += 2 + count
        }
        var w = ByteWriter(capacity: total)
        for s in structures { s.write(to: &w) }
        self.init(decoding: w.bytes)
    }

    /// Checks AD data of a structure that fits the payload against its type's layout.
    static func check(type: ADType, offset: Int, data: ArraySlice<UInt8>) -> ADDiagnostic? {
        let layout = type.dataLayout
        let count = data.count
        if case .multiple(let size) = layout {
            let remainder = count % size
            guard remainder != 0 else { return nil }
            return ADDiagnostic(offset: offset, type: type,
                                reason: .partialTrailingEntry(entryLength: size, offset: data.endIndex - remainder, count: remainder))
        }
        guard layout.accepts(count) else {
            return ADDiagnostic(offset: offset, type: type, reason: .invalidLength(count: count, expected: layout))
        }
        if type == .uri, ADURI(decoding: data) == nil {
            return ADDiagnostic(offset: offset, type: type, reason: .invalidURIScheme)
        }
        return nil
    }

    /// The payload's octets: ``bytes``, unchanged (for a payload built from structures, their encoding).
    public var encoded: [UInt8] { bytes }

    /// The number of octets in the payload, padding included: compare it with
    /// ``legacyMaximumLength`` (31) or ``extendedMaximumLength`` (1650) before advertising.
    public var encodedLength: Int { bytes.count }

    /// Whether the payload fits a legacy advertising or scan-response PDU (31 octets).
    public var fitsLegacyPDU: Bool { bytes.count <= Self.legacyMaximumLength }

    /// The octets up to the zero Length octet that ends the structures, or all of them.
    public var significantLength: Int { terminatorOffset ?? bytes.count }

    /// The octets from the terminating zero Length octet to the end (empty when there is none).
    public var padding: ArraySlice<UInt8> { bytes[significantLength...] }

    /// Every structure that decodes, in payload order: well-formed ones, and lists with a partial
    /// last entry (their whole entries). Malformed structures are left out; see ``elements``.
    public var structures: [ADStructure] { elements.compactMap(\.structure) }

    /// The diagnostics of every malformed structure, in payload order.
    public var diagnostics: [ADDiagnostic] { elements.compactMap(\.diagnostic) }

    /// Whether no structure has a diagnostic.
    public var isWellFormed: Bool { !elements.contains { $0.diagnostic != nil } }

    /// The structures, one per line-item, joined by ", ", as a capture tool prints them:
    /// `Flags 0x06 (LE General Discoverable, BR/EDR Not Supported), Complete Local Name "ABCD"`.
    /// Malformed structures show their raw octets and diagnostic in brackets; "empty" for none.
    public var description: String {
        var out = TextOutput(capacity: 64 * elements.count + 8)
        writeDescription(to: &out)
        return out.string
    }

    /// Appends ``description`` to `out`.
    public func writeDescription(to out: inout TextOutput) {
        guard !elements.isEmpty else {
            out.write("empty")
            return
        }
        for i in elements.indices {
            if i > 0 { out.write(", ") }
            elements[i].writeDescription(to: &out)
        }
    }

    /// Two payloads are equal when their octets are (the elements follow from them).
    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.bytes == rhs.bytes }

    /// Hashes the payload's octets.
    public func hash(into hasher: inout Hasher) { hasher.combine(bytes) }
}
