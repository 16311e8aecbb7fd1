import BLECore

/// L2CAP_COMMAND_REJECT_RSP, code 0x01 (Core v5.4, Vol 3, Part A, 4.1): the answer to a command
/// with an unknown code, a signaling PDU longer than the signaling MTU, or an invalid CID.
///
/// Data: Reason (2 octets), then Reason Data (0 or more octets) whose shape depends on the
/// reason: none for Command not understood, Actual MTU (2) for Signaling MTU exceeded, Local
/// Endpoint (2) and Remote Endpoint (2) for Invalid CID in request. Reason Data is kept raw; the
/// accessors read it when it has the shape its reason calls for.
public struct L2CAPCommandReject: Hashable, Sendable, CustomStringConvertible {
    /// The Reason field. Unknown values are kept raw.
    public struct Reason: RawRepresentable, Hashable, Sendable, CustomStringConvertible, RawFieldValue {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// 0x0000: Command not understood.
        public static let commandNotUnderstood = Reason(rawValue: 0x0000)
        /// 0x0001: Signaling MTU exceeded.
        public static let signalingMTUExceeded = Reason(rawValue: 0x0001)
        /// 0x0002: Invalid CID in request.
        public static let invalidCIDInRequest = Reason(rawValue: 0x0002)

        /// The reason's name, or "reason 0x0009" when reserved.
        public var description: String {
            switch self {
            case .commandNotUnderstood: return "Command not understood"
            case .signalingMTUExceeded: return "Signaling MTU exceeded"
            case .invalidCIDInRequest: return "Invalid CID in request"
            default: return "reason \(Hex.hex16(rawValue))"
            }
        }
    }

    /// The code of this command, 0x01.
    public static let code = L2CAPSignalingCode.commandReject

    /// Why the command was rejected.
    public var reason: Reason
    /// The Reason Data, raw (0 or more octets).
    public var reasonData: [UInt8]

    /// A Command Reject with `reason` and its raw Reason Data (none for Command not understood).
    public init(reason: Reason, reasonData: [UInt8] = []) {
        self.reason = reason
        self.reasonData = reasonData
    }

    /// A reject for a signaling PDU that exceeded the signaling MTU, with this device's `actualMTU` (octets).
    public static func signalingMTUExceeded(actualMTU: UInt16) -> L2CAPCommandReject {
        var w = ByteWriter(capacity: 2)
        w.writeUInt16(actualMTU)
        return L2CAPCommandReject(reason: .signalingMTUExceeded, reasonData: w.bytes)
    }

    /// A reject for a request that named an invalid CID: `localEndpoint` is the Destination CID and
    /// `remoteEndpoint` the Source CID of the rejected request.
    public static func invalidCID(localEndpoint: UInt16, remoteEndpoint: UInt16) -> L2CAPCommandReject {
        var w = ByteWriter(capacity: 4)
        w.writeUInt16(localEndpoint)
        w.writeUInt16(remoteEndpoint)
        return L2CAPCommandReject(reason: .invalidCIDInRequest, reasonData: w.bytes)
    }

    /// Actual MTU (octets), when the reason is Signaling MTU exceeded and the data are 2 octets.
    public var actualMTU: UInt16? {
        guard reason == .signalingMTUExceeded, reasonData.count == 2 else { return nil }
        return UInt16(reasonData[0]) | UInt16(reasonData[1]) << 8
    }

    /// Local Endpoint and Remote Endpoint, when the reason is Invalid CID in request and the data
    /// are 4 octets.
    public var invalidCIDs: (localEndpoint: UInt16, remoteEndpoint: UInt16)? {
        guard reason == .invalidCIDInRequest, reasonData.count == 4 else { return nil }
        return (UInt16(reasonData[0]) | UInt16(reasonData[1]) << 8,
                UInt16(reasonData[2]) | UInt16(reasonData[3]) << 8)
    }

    /// "Command Reject Signaling MTU exceeded, actual MTU 23".
    public var description: String {
        var text = "Command Reject \(reason)"
        if let mtu = actualMTU {
            text += ", actual MTU \(mtu)"
        } else if let cids = invalidCIDs {
            text += ", local endpoint \(Hex.hex16(cids.localEndpoint)) remote endpoint \(Hex.hex16(cids.remoteEndpoint))"
        } else if !reasonData.isEmpty {
            text += ", data \(Hex.encode(reasonData))"
        }
        return text
    }
}

extension L2CAPCommandReject: SignalingCommandLayout {
    init() { self.init(reason: .commandNotUnderstood) }

    mutating func layout<C: FieldLayoutCoder>(_ c: inout C) throws(C.Failure) {
        try c.field(&reason, "Reason")
        try c.remaining(&reasonData, "Reason Data")
    }
}
