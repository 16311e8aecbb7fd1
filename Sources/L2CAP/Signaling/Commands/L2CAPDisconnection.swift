import BLECore

/// L2CAP_DISCONNECTION_REQ, code 0x06 (Core v5.4, Vol 3, Part A, 4.6): close a
/// connection-oriented channel.
///
/// Data: Destination CID (2 octets, the endpoint on the receiving device), Source CID (2 octets,
/// the endpoint on the sending device).
public struct L2CAPDisconnectionRequest: Hashable, Sendable, CustomStringConvertible {
    /// The code of this command, 0x06.
    public static let code = L2CAPSignalingCode.disconnectionRequest

    /// The channel endpoint on the device receiving the request.
    public var destinationCID: UInt16
    /// The channel endpoint on the device sending the request.
    public var sourceCID: UInt16

    public init(destinationCID: UInt16, sourceCID: UInt16) {
        self.destinationCID = destinationCID
        self.sourceCID = sourceCID
    }

    /// "Disconnection Request destination CID 0x0040 source CID 0x0041".
    public var description: String {
        "Disconnection Request destination CID \(cidText(destinationCID)) source CID \(cidText(sourceCID))"
    }
}

extension L2CAPDisconnectionRequest: SignalingCommandLayout {
    init() { self.init(destinationCID: 0, sourceCID: 0) }

    mutating func layout<C: FieldLayoutCoder>(_ c: inout C) throws(C.Failure) {
        try c.field(&destinationCID, "Destination CID")
        try c.field(&sourceCID, "Source CID")
    }
}

/// L2CAP_DISCONNECTION_RSP, code 0x07 (Core v5.4, Vol 3, Part A, 4.7): the channel is closed.
///
/// Data: Destination CID (2 octets) and Source CID (2 octets), echoing the request: the
/// Destination CID is the endpoint on the device sending the response.
public struct L2CAPDisconnectionResponse: Hashable, Sendable, CustomStringConvertible {
    /// The code of this command, 0x07.
    public static let code = L2CAPSignalingCode.disconnectionResponse

    /// The channel endpoint on the device sending the response.
    public var destinationCID: UInt16
    /// The channel endpoint on the device receiving the response.
    public var sourceCID: UInt16

    public init(destinationCID: UInt16, sourceCID: UInt16) {
        self.destinationCID = destinationCID
        self.sourceCID = sourceCID
    }

    /// "Disconnection Response destination CID 0x0040 source CID 0x0041".
    public var description: String {
        "Disconnection Response destination CID \(cidText(destinationCID)) source CID \(cidText(sourceCID))"
    }
}

extension L2CAPDisconnectionResponse: SignalingCommandLayout {
    init() { self.init(destinationCID: 0, sourceCID: 0) }

    mutating func layout<C: FieldLayoutCoder>(_ c: inout C) throws(C.Failure) {
        try c.field(&destinationCID, "Destination CID")
        try c.field(&sourceCID, "Source CID")
    }
}
