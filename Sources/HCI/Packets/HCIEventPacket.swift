import BLECore

/// An HCI Event packet, controller to host (Core v5.4, Vol 4, Part E, 5.4.4).
///
/// Layout: Event_Code (1 octet), Parameter_Total_Length (1 octet), then that many octets of
/// parameters. ``HCIEvent`` decodes the events this package knows.
public struct HCIEventPacket: Hashable, Sendable, CustomStringConvertible {
    /// The octets before the parameters: Event_Code and Parameter_Total_Length.
    public static let headerLength = 2

    /// The event code.
    public var code: HCIEventCode
    /// The parameters, Parameter_Total_Length octets (0...255).
    public var parameters: [UInt8]

    /// An event packet; `parameters` should hold at most 255 octets, as the length field is one octet.
    public init(code: HCIEventCode, parameters: [UInt8] = []) {
        self.code = code
        self.parameters = parameters
    }

    /// Decodes an event packet without its H4 packet indicator.
    ///
    /// - Throws: ``BLEDecodingError/truncated(field:offset:needed:available:)`` when the header
    ///   or the parameters are short of Parameter_Total_Length;
    ///   ``BLEDecodingError/unexpectedTrailingOctets(offset:count:)`` when octets follow them.
    public init(decoding bytes: ArraySlice<UInt8>) throws(BLEDecodingError) {
        var r = ByteReader(bytes)
        code = HCIEventCode(rawValue: try r.readUInt8("Event_Code"))
        let length = try r.readUInt8("Parameter_Total_Length")
        parameters = try r.readBytes(Int(length), "Parameters")
        try r.expectEnd()
    }

    /// Decodes an event packet without its H4 packet indicator.
    ///
    /// - Throws: as the slice overload does.
    public init(decoding bytes: [UInt8]) throws(BLEDecodingError) { try self.init(decoding: bytes[...]) }

    /// The packet without its H4 packet indicator. Parameter_Total_Length is the low eight bits
    /// of the parameters' count.
    public var encoded: [UInt8] {
        var w = ByteWriter(capacity: Self.headerLength + parameters.count)
        w.writeUInt8(code.rawValue)
        w.writeUInt8(UInt8(truncatingIfNeeded: parameters.count))
        w.writeBytes(parameters)
        return w.bytes
    }

    /// The event code and the parameters in hexadecimal.
    public var description: String {
        parameters.isEmpty ? code.description : "\(code) parameters=\(Hex.encode(parameters))"
    }
}
