import BLECore

/// Why an LE signaling packet or command could not be decoded: the underlying
/// ``BLEDecodingError`` (field and offset), with the command it was in.
///
/// Offsets count from the Code octet of the signaling packet, so the first data field sits at
/// offset 4 (after Code, Identifier and Length; Core v5.4, Vol 3, Part A, 4).
public struct L2CAPSignalingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The command's Code, nil when the packet was too short to hold one.
    public var code: L2CAPSignalingCode?
    /// The field that was wrong and where.
    public var underlying: BLEDecodingError

    /// An error for the command with `code` (nil before the Code octet was read).
    public init(code: L2CAPSignalingCode?, underlying: BLEDecodingError) {
        self.code = code
        self.underlying = underlying
    }

    /// "Connection Parameter Update Request (0x12): Timeout at offset 10 needs 2 octets, 1 available".
    public var description: String {
        "\(code.map { $0.description } ?? "LE signaling"): \(underlying)"
    }
}
