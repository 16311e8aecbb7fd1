import BLECore

/// A packet on the kernel's Bluetooth management channel (an HCI socket bound to
/// HCI_CHANNEL_CONTROL): the interface through which Linux's Bluetooth subsystem is configured
/// without bluetoothd (Linux, BlueZ doc/mgmt-api.txt, "Packet Structures").
///
/// Layout, little-endian: Code (2 octets: a command code to the kernel, an event code from it),
/// Controller Index (2; 0xFFFF for none), Parameter Length (2), then that many octets.
public struct ManagementPacket: Hashable, Sendable, CustomStringConvertible {
    /// The controller index meaning "no controller" (commands about the subsystem itself).
    public static let noController: UInt16 = 0xFFFF
    /// The octets before the parameters.
    public static let headerLength = 6

    /// The command or event code.
    public var code: UInt16
    /// The controller index N of hciN, or ``noController``.
    public var controllerIndex: UInt16
    /// The parameters.
    public var parameters: [UInt8]

    /// A packet with the given fields.
    public init(code: UInt16, controllerIndex: UInt16, parameters: [UInt8] = []) {
        self.code = code
        self.controllerIndex = controllerIndex
        self.parameters = parameters
    }

    /// Decodes one packet (one socket message).
    ///
    /// - Throws: ``BLEDecodingError`` when the header is short, the parameters are shorter than
    ///   Parameter Length, or octets follow them.
    public init(decoding bytes: [UInt8]) throws(BLEDecodingError) {
        var r = ByteReader(bytes[...])
        code = try r.readUInt16("Code")
        controllerIndex = try r.readUInt16("Controller Index")
        let length = try r.readUInt16("Parameter Length")
        parameters = try r.readBytes(Int(length), "Parameters")
        try r.expectEnd()
    }

    /// The packet's octets.
    public var encoded: [UInt8] {
        var w = ByteWriter(capacity: Self.headerLength + parameters.count)
        w.writeUInt16(code)
        w.writeUInt16(controllerIndex)
        w.writeUInt16(UInt16(truncatingIfNeeded: parameters.count))
        w.writeBytes(parameters)
        return w.bytes
    }

    /// "code 0x0005 index 0 parameters 01".
    public var description: String {
        "code \(Hex.hex16(code)) index \(controllerIndex == Self.noController ? "none" : "\(controllerIndex)")"
            + (parameters.isEmpty ? "" : " parameters \(Hex.encode(parameters))")
    }
}
