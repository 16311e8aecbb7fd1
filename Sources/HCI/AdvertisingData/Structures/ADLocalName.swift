import BLECore

/// The Shortened (AD type 0x08) or Complete (0x09) Local Name (CSS Part A, 1.2): the device
/// name in UTF-8 (Core v5.4, Vol 3, Part C, 3.2.2), or its first characters when shortened.
///
/// The octets are kept exactly as received, so a name with invalid UTF-8 (seen in real devices)
/// loses nothing: ``string`` replaces what cannot be decoded with U+FFFD, ``bytes`` still hold
/// the original, and ``isValidUTF8`` says which case this is. Trailing NUL octets, which some
/// devices send to pad the name, are kept in both.
public struct ADLocalName: Hashable, Sendable, CustomStringConvertible {
    /// The name's octets as received or to be sent.
    public let bytes: [UInt8]
    /// True for a Complete Local Name (0x09), false for a Shortened Local Name (0x08).
    public let isComplete: Bool

    /// A name from its octets.
    public init(bytes: [UInt8], isComplete: Bool = true) {
        self.bytes = bytes
        self.isComplete = isComplete
    }

    /// A name from text, encoded in UTF-8.
    public init(_ name: String, isComplete: Bool = true) {
        self.bytes = Array(name.utf8)
        self.isComplete = isComplete
    }

    /// The AD type this name is sent as: 0x09 when complete, 0x08 when shortened.
    public var type: ADType { isComplete ? .completeLocalName : .shortenedLocalName }

    /// The name as text; octets that are not valid UTF-8 become U+FFFD (a lossy decode).
    public var string: String { String(decoding: bytes, as: UTF8.self) }

    /// Whether ``bytes`` are valid UTF-8, so ``string`` is exact.
    public var isValidUTF8: Bool { ADText.isValidUTF8(bytes[...]) }

    /// `"ABCD"`, with control characters escaped; invalid UTF-8 adds the octets:
    /// `"AB\u{FFFD}" (invalid UTF-8: 41 42 ff)`.
    public var description: String {
        var out = TextOutput(capacity: 2 * bytes.count + 8)
        writeDescription(to: &out)
        return out.string
    }

    /// Appends ``description`` to `out`.
    public func writeDescription(to out: inout TextOutput) {
        bytes.withUnsafeBufferPointer { Self.writeDescription(bytes: $0, to: &out) }
    }

    /// Appends the ``description`` of a name of octets `bytes` to `out`: the text of the typed
    /// value, written from the octets as received.
    static func writeDescription(bytes: UnsafeBufferPointer<UInt8>, to out: inout TextOutput) {
        out.writeQuoted(bytes)
        if !ADText.isValidUTF8(bytes) {
            out.write(" (invalid UTF-8: ")
            out.writeHex(bytes, separator: " ")
            out.write(octet: UInt8(ascii: ")"))
        }
    }
}
