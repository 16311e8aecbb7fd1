import BLECore

/// An HCI Command packet, host to controller (Core v5.4, Vol 4, Part E, 5.4.1).
///
/// Layout: Opcode (2 octets), Parameter_Total_Length (1 octet), then that many octets of
/// parameters. ``HCICommandValue`` decodes the parameters of the commands this package knows.
public struct HCICommandPacket: Hashable, Sendable, CustomStringConvertible {
    /// The octets before the parameters: Opcode and Parameter_Total_Length.
    public static let headerLength = 3

    /// The command's opcode.
    public var opcode: HCIOpcode
    /// The parameters, Parameter_Total_Length octets (0...255).
    public var parameters: [UInt8]

    /// A command packet; `parameters` should hold at most 255 octets, as the length field is one octet.
    public init(opcode: HCIOpcode, parameters: [UInt8] = []) {
        self.opcode = opcode
        self.parameters = parameters
    }

    /// Decodes a command packet without its H4 packet indicator.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` when the header
    ///   or the parameters are short of Parameter_Total_Length;
    ///   ``BLEDecodingError/unexpectedTrailingOctets(offset:count:)`` when octets follow them.
    public init(decoding bytes: ArraySlice<UInt8>) throws(BLEDecodingError) {
        var r = ByteReader(bytes)
        opcode = HCIOpcode(rawValue: try r.readUInt16("Opcode"))
        let length = try r.readUInt8("Parameter_Total_Length")
        parameters = try r.readBytes(Int(length), "Parameters")
        try r.expectEnd()
    }

    /// Decodes a command packet without its H4 packet indicator.
    ///
    /// - Throws: as the slice overload does.
    public init(decoding bytes: [UInt8]) throws(BLEDecodingError) { try self.init(decoding: bytes[...]) }

    /// The packet without its H4 packet indicator. Parameter_Total_Length is the low eight bits
    /// of the parameters' count.
    public var encoded: [UInt8] {
        var w = ByteWriter(capacity: Self.headerLength + parameters.count)
        w.writeUInt16(opcode.rawValue)
        w.writeUInt8(UInt8(truncatingIfNeeded: parameters.count))
        w.writeBytes(parameters)
        return w.bytes
    }

    /// The opcode and the parameters in hexadecimal.
    public var description: String {
        parameters.isEmpty ? opcode.description : "\(opcode) parameters=\(Hex.encode(parameters))"
    }
}
