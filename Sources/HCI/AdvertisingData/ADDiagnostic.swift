import BLECore

/// What was wrong with one AD structure of an advertising or scan-response payload.
///
/// Advertising data come from the air: a bad structure is normal input. The decoder never
/// throws for one; it keeps the structure's raw octets, records a diagnostic on it, and goes on
/// with the next structure, whose place the bad structure's Length octet alone decides
/// (Core v5.4, Vol 3, Part C, 11).
public struct ADDiagnostic: Hashable, Sendable, CustomStringConvertible {
    /// Why the structure could not be decoded, or not entirely.
    public enum Reason: Hashable, Sendable {
        /// The Length octet declares `declared` octets (AD type and AD data) but only `available`
        /// remain in the payload after it. The structure is kept raw, cut at the payload's end.
        case runsPastEnd(declared: Int, available: Int)
        /// The AD data are `count` octets long, which the AD type does not allow (for example
        /// Tx Power Level of 2 octets, or Manufacturer Specific Data shorter than its Company ID).
        /// The structure is kept raw.
        case invalidLength(count: Int, expected: ADDataLayout)
        /// A list of fixed-size entries (UUIDs, addresses) ends in `count` octets that do not make
        /// a whole entry of `entryLength` octets, starting at payload offset `offset`. The whole
        /// entries before them are decoded and kept.
        case partialTrailingEntry(entryLength: Int, offset: Int, count: Int)
        /// The URI's first character, which carries the scheme code point, is not valid UTF-8
        /// (CSS Part A, 1.18). The structure is kept raw.
        case invalidURIScheme
    }

    /// The payload offset of the structure's Length octet.
    public let offset: Int
    /// The structure's AD type; nil when the payload ends right after the Length octet.
    public let type: ADType?
    /// What was wrong.
    public let reason: Reason

    /// A diagnostic on the structure whose Length octet is at payload offset `offset`.
    public init(offset: Int, type: ADType?, reason: Reason) {
        self.offset = offset
        self.type = type
        self.reason = reason
    }

    /// The same fault as a ``BLEDecodingError`` naming the field and its payload offset, for
    /// callers that report every decoding fault the same way. The fields are those of Vol 3,
    /// Part C, 11: a structure that runs past the payload is a truncated Data field (AD type and
    /// AD data, Length octets, starting after the Length octet); a length its type does not
    /// allow is an invalid Length; leftover list octets are trailing octets; a bad URI scheme is
    /// an invalid value at the first AD data octet.
    public var decodingError: BLEDecodingError {
        let typeName = type.map { $0.name ?? $0.description }
        switch reason {
        case let .runsPastEnd(declared, available):
            return .truncated(field: typeName.map { "Data (\($0))" } ?? "Data", offset: offset + 1,
                              needed: declared, available: available)
        case let .invalidLength(count, expected):
            return .invalidValue(field: "Length", offset: offset,
                                 reason: "AD data of \(typeName ?? "the structure") has \(count) octet\(count == 1 ? "" : "s"), expected \(expected)")
        case let .partialTrailingEntry(_, offset, count):
            return .unexpectedTrailingOctets(offset: offset, count: count)
        case .invalidURIScheme:
            return .invalidValue(field: "URI scheme", offset: offset + 2, reason: "not a valid UTF-8 character")
        }
    }

    /// "Manufacturer Specific Data (0xFF) at offset 3: 1 AD data octet, expected at least 2 octets".
    public var description: String {
        let what = type.map(\.description) ?? "AD structure"
        let detail: String
        switch reason {
        case let .runsPastEnd(declared, available):
            detail = "Length \(declared) runs past the end of the payload (\(available) octet\(available == 1 ? "" : "s") left)"
        case let .invalidLength(count, expected):
            detail = "\(count) AD data octet\(count == 1 ? "" : "s"), expected \(expected)"
        case let .partialTrailingEntry(entryLength, offset, count):
            detail = "\(count) octet\(count == 1 ? " does" : "s do") not make a whole \(entryLength)-octet entry at offset \(offset)"
        case .invalidURIScheme:
            detail = "the scheme code point is not valid UTF-8"
        }
        return "\(what) at offset \(offset): \(detail)"
    }
}
