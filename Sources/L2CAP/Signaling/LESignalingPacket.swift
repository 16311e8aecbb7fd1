import BLECore

/// One signaling command as it travels in a B-frame on the LE signaling channel, CID 0x0005
/// (Core v5.4, Vol 3, Part A, 4, Figure 4.3).
///
/// Layout, little-endian: Code (1 octet), Identifier (1 octet, matches a response to its request;
/// 0x00 is never valid), Length (2 octets, the octets of data), then data. On LE-U a signaling
/// PDU carries exactly one command, so the decoder insists that Length accounts for every octet
/// after the header.
public struct LESignalingPacket: Hashable, Sendable, CustomStringConvertible {
    /// The octets of the command header: Code, Identifier, Length.
    public static let headerLength = 4

    /// The command's Code.
    public var code: L2CAPSignalingCode
    /// The Identifier that pairs a response with its request, 0x01...0xFF.
    public var identifier: UInt8
    /// The command's data field, raw; ``command()`` parses it.
    public private(set) var data: [UInt8]

    /// A packet from its parts.
    ///
    /// - Precondition: `data` has at most 65535 octets (what the Length field can say); decoded
    ///   packets can never be longer.
    public init(code: L2CAPSignalingCode, identifier: UInt8, data: [UInt8]) {
        precondition(data.count <= Int(UInt16.max), "a signaling command holds at most 65535 octets of data")
        self.code = code
        self.identifier = identifier
        self.data = data
    }

    /// The packet that carries `command` with `identifier`.
    public init(identifier: UInt8, command: LESignalingCommand) {
        self.init(code: command.code, identifier: identifier, data: command.encodedData)
    }

    /// Decodes one signaling packet that fills `bytes` (a B-frame's payload) exactly.
    ///
    /// - Throws: ``L2CAPSignalingError`` with a nil code when `bytes` is empty; else with the code
    ///   and "Identifier" or "Length" truncated, "Data" shorter than Length (offset 4), or
    ///   octets after the data (a second command, not allowed on LE).
    public init(decoding bytes: ArraySlice<UInt8>) throws(L2CAPSignalingError) {
        var r = ByteReader(bytes)
        let rawCode: UInt8
        do { rawCode = try r.readUInt8("Code") } catch { throw L2CAPSignalingError(code: nil, underlying: error) }
        let code = L2CAPSignalingCode(rawValue: rawCode)
        do {
            let identifier = try r.readUInt8("Identifier")
            let length = try r.readUInt16("Length")
            let data = try r.readBytes(Int(length), "Data")
            try r.expectEnd()
            self.init(code: code, identifier: identifier, data: data)
        } catch {
            throw L2CAPSignalingError(code: code, underlying: error)
        }
    }

    /// Decodes one signaling packet that fills `bytes` exactly; see ``init(decoding:)-(ArraySlice<UInt8>)``.
    public init(decoding bytes: [UInt8]) throws(L2CAPSignalingError) { try self.init(decoding: bytes[...]) }

    /// Parses the data field as the command its code names.
    ///
    /// - Throws: ``L2CAPSignalingError`` with offsets counted from the Code octet.
    public func command() throws(L2CAPSignalingError) -> LESignalingCommand {
        try LESignalingCommand(code: code, data: data[...])
    }

    /// The packet's octets: the B-frame payload for CID 0x0005.
    public var encoded: [UInt8] {
        var w = ByteWriter(capacity: Self.headerLength + data.count)
        w.writeUInt8(code.rawValue)
        w.writeUInt8(identifier)
        w.writeUInt16(UInt16(truncatingIfNeeded: data.count))
        w.writeBytes(data)
        return w.bytes
    }

    /// The B-frame on the LE signaling channel that carries this packet.
    public var frame: L2CAPBasicFrame { L2CAPBasicFrame(channelID: .leSignaling, payload: encoded) }

    /// "id 0x14 Connection Parameter Update Request interval 45 ms latency 0 timeout 2000 ms", or
    /// the decoding error when the data do not fit the code.
    public var description: String {
        let id = "id 0x\(Hex.encode([identifier]))"
        do { return "\(id) \(try command())" } catch { return "\(id) malformed \(error)" }
    }
}
