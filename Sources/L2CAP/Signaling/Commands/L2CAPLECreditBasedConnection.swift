import BLECore

/// L2CAP_LE_CREDIT_BASED_CONNECTION_REQ, code 0x14 (Core v5.4, Vol 3, Part A, 4.22): open one
/// LE credit-based connection-oriented channel.
///
/// Data, 10 octets: SPSM (2, the protocol/service multiplexer, 0x0001...0x00FF), Source CID (2,
/// from the LE dynamic range), MTU (2, largest SDU the sender can receive, 23...65535 octets),
/// MPS (2, largest PDU payload it can receive, 23...65533 octets), Initial Credits (2, K-frames
/// the peer may send, 0...65535). Values are kept as received.
public struct L2CAPLECreditBasedConnectionRequest: Hashable, Sendable, CustomStringConvertible {
    /// The code of this command, 0x14.
    public static let code = L2CAPSignalingCode.leCreditBasedConnectionRequest

    /// The Simplified Protocol/Service Multiplexer of the service asked for.
    public var spsm: UInt16
    /// The channel endpoint on the requesting device.
    public var sourceCID: UInt16
    /// The largest SDU the requester can receive, in octets.
    public var mtu: UInt16
    /// The largest PDU payload the requester can receive, in octets.
    public var mps: UInt16
    /// The K-frames the peer may send before it needs more credits.
    public var initialCredits: UInt16

    /// A request; MTU and MPS in octets.
    public init(spsm: UInt16, sourceCID: UInt16, mtu: UInt16, mps: UInt16, initialCredits: UInt16) {
        self.spsm = spsm
        self.sourceCID = sourceCID
        self.mtu = mtu
        self.mps = mps
        self.initialCredits = initialCredits
    }

    /// "LE Credit Based Connection Request SPSM 0x0080 source CID 0x0040 MTU 512 octets MPS 247 octets initial credits 10".
    public var description: String {
        "LE Credit Based Connection Request SPSM \(Hex.hex16(spsm)) source CID \(cidText(sourceCID)) "
            + "MTU \(mtu) octets MPS \(mps) octets initial credits \(initialCredits)"
    }
}

extension L2CAPLECreditBasedConnectionRequest: SignalingCommandLayout {
    init() { self.init(spsm: 0, sourceCID: 0, mtu: 0, mps: 0, initialCredits: 0) }

    mutating func layout<C: FieldLayoutCoder>(_ c: inout C) throws(C.Failure) {
        try c.field(&spsm, "SPSM")
        try c.field(&sourceCID, "Source CID")
        try c.field(&mtu, "MTU")
        try c.field(&mps, "MPS")
        try c.field(&initialCredits, "Initial Credits")
    }
}

/// L2CAP_LE_CREDIT_BASED_CONNECTION_RSP, code 0x15 (Core v5.4, Vol 3, Part A, 4.23).
///
/// Data, 10 octets: Destination CID (2, the responder's endpoint), MTU (2, octets), MPS (2,
/// octets), Initial Credits (2), Result (2). On a refusal the other fields are zero.
public struct L2CAPLECreditBasedConnectionResponse: Hashable, Sendable, CustomStringConvertible {
    /// The Result field (Table 4.16). Unknown values are kept raw.
    public struct Result: RawRepresentable, Hashable, Sendable, CustomStringConvertible, RawFieldValue {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// 0x0000: Connection successful.
        public static let success = Result(rawValue: 0x0000)
        /// 0x0002: Connection refused – SPSM not supported.
        public static let spsmNotSupported = Result(rawValue: 0x0002)
        /// 0x0004: Connection refused – no resources available.
        public static let noResourcesAvailable = Result(rawValue: 0x0004)
        /// 0x0005: Connection refused – insufficient authentication.
        public static let insufficientAuthentication = Result(rawValue: 0x0005)
        /// 0x0006: Connection refused – insufficient authorization.
        public static let insufficientAuthorization = Result(rawValue: 0x0006)
        /// 0x0007: Connection refused – encryption key size too short.
        public static let encryptionKeySizeTooShort = Result(rawValue: 0x0007)
        /// 0x0008: Connection refused – insufficient encryption.
        public static let insufficientEncryption = Result(rawValue: 0x0008)
        /// 0x0009: Connection refused – invalid Source CID.
        public static let invalidSourceCID = Result(rawValue: 0x0009)
        /// 0x000A: Connection refused – Source CID already allocated.
        public static let sourceCIDAlreadyAllocated = Result(rawValue: 0x000A)
        /// 0x000B: Connection refused – unacceptable parameters.
        public static let unacceptableParameters = Result(rawValue: 0x000B)

        /// The result's name in the specification's words, nil when reserved.
        public var name: String? {
            switch rawValue {
            case 0x0000: return "Connection successful"
            case 0x0002: return "Connection refused - SPSM not supported"
            case 0x0004: return "Connection refused - no resources available"
            case 0x0005: return "Connection refused - insufficient authentication"
            case 0x0006: return "Connection refused - insufficient authorization"
            case 0x0007: return "Connection refused - encryption key size too short"
            case 0x0008: return "Connection refused - insufficient encryption"
            case 0x0009: return "Connection refused - invalid Source CID"
            case 0x000A: return "Connection refused - Source CID already allocated"
            case 0x000B: return "Connection refused - unacceptable parameters"
            default: return nil
            }
        }

        /// "Connection successful (0x0000)" or "result 0x0001 (reserved)".
        public var description: String {
            name.map { "\($0) (\(Hex.hex16(rawValue)))" } ?? "result \(Hex.hex16(rawValue)) (reserved)"
        }
    }

    /// The code of this command, 0x15.
    public static let code = L2CAPSignalingCode.leCreditBasedConnectionResponse

    /// The channel endpoint on the responding device.
    public var destinationCID: UInt16
    /// The largest SDU the responder can receive, in octets.
    public var mtu: UInt16
    /// The largest PDU payload the responder can receive, in octets.
    public var mps: UInt16
    /// The K-frames the requester may send before it needs more credits.
    public var initialCredits: UInt16
    /// Whether the channel was opened, and if not, why.
    public var result: Result

    /// A response; MTU and MPS in octets, all zero with a refusal.
    public init(destinationCID: UInt16, mtu: UInt16, mps: UInt16, initialCredits: UInt16, result: Result) {
        self.destinationCID = destinationCID
        self.mtu = mtu
        self.mps = mps
        self.initialCredits = initialCredits
        self.result = result
    }

    /// "LE Credit Based Connection Response destination CID 0x0041 MTU 512 octets MPS 247 octets initial credits 10 result Connection successful (0x0000)".
    public var description: String {
        "LE Credit Based Connection Response destination CID \(cidText(destinationCID)) MTU \(mtu) octets "
            + "MPS \(mps) octets initial credits \(initialCredits) result \(result)"
    }
}

extension L2CAPLECreditBasedConnectionResponse: SignalingCommandLayout {
    init() { self.init(destinationCID: 0, mtu: 0, mps: 0, initialCredits: 0, result: .success) }

    mutating func layout<C: FieldLayoutCoder>(_ c: inout C) throws(C.Failure) {
        try c.field(&destinationCID, "Destination CID")
        try c.field(&mtu, "MTU")
        try c.field(&mps, "MPS")
        try c.field(&initialCredits, "Initial Credits")
        try c.field(&result, "Result")
    }
}
