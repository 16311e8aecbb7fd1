/// Reads a libFuzzer input as the values a structured harness needs, front to back: choices,
/// integers and octet strings. Past the end every read gives zeros or nothing, so any input,
/// however short, is a complete test (libFuzzer shrinks inputs towards the empty one).
public struct FuzzInput: Sendable {
    /// The input's octets.
    public let octets: [UInt8]
    /// Where the next read starts.
    public private(set) var position = 0

    /// A reader at the first of `octets`.
    public init(_ octets: [UInt8]) { self.octets = octets }

    /// A copy of the `size` octets at `data` (libFuzzer passes a null `data` for the empty input).
    public static func octets(_ data: UnsafePointer<UInt8>?, _ size: Int) -> [UInt8] {
        guard let data, size > 0 else { return [] }
        return Array(UnsafeBufferPointer(start: data, count: size))
    }

    /// Whether every octet has been read.
    public var isAtEnd: Bool { position >= octets.count }

    /// The octets not yet read.
    public var remaining: ArraySlice<UInt8> { octets[min(position, octets.count)...] }

    /// The next octet, or 0 past the end.
    public mutating func uint8() -> UInt8 {
        guard position < octets.count else { return 0 }
        defer { position += 1 }
        return octets[position]
    }

    /// The next two octets, little-endian, or what is left of them.
    public mutating func uint16() -> UInt16 {
        UInt16(uint8()) | UInt16(uint8()) << 8
    }

    /// A number in `0..<count` (0 when `count` is 0), from one octet.
    public mutating func choice(_ count: Int) -> Int {
        count <= 0 ? 0 : Int(uint8()) % count
    }

    /// The next `count` octets, fewer at the end of the input.
    public mutating func octets(_ count: Int) -> [UInt8] {
        let start = min(position, octets.count)
        let end = min(start + max(0, count), octets.count)
        position = end
        return Array(octets[start..<end])
    }

    /// An octet string whose length is the next octet: the way harnesses cut an input into PDUs.
    public mutating func lengthPrefixed() -> [UInt8] {
        octets(Int(uint8()))
    }

    /// Every octet not yet read.
    public mutating func rest() -> [UInt8] {
        octets(octets.count - position)
    }
}
