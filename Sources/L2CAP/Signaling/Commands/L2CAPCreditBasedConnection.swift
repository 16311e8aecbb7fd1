import BLECore

/// L2CAP_CREDIT_BASED_CONNECTION_REQ, code 0x17 (Core v5.4, Vol 3, Part A, 4.25): open up to
/// five enhanced credit-based channels at once (used by EATT).
///
/// Data: SPSM (2), MTU (2, octets, at least 64), MPS (2, octets, at least 64), Initial Credits
/// (2), then Source CID (2 octets each, 1...5 of them). The decoder takes every 2-octet Source
/// CID present and leaves the count check to the responder.
public struct L2CAPCreditBasedConnectionRequest: Hashable, Sendable, CustomStringConvertible {
    /// The code of this command, 0x17.
    public static let code = L2CAPSignalingCode.creditBasedConnectionRequest

    /// The Simplified Protocol/Service Multiplexer of the service asked for.
    public var spsm: UInt16
    /// The largest SDU the requester can receive on each channel, in octets.
    public var mtu: UInt16
    /// The largest PDU payload the requester can receive, in octets.
    public var mps: UInt16
    /// The K-frames the peer may send on each channel before it needs more credits.
    public var initialCredits: UInt16
    /// The requester's endpoints, one per channel asked for.
    public var sourceCIDs: [UInt16]

    /// A request; MTU and MPS in octets, one Source CID per channel asked for (1...5).
    public init(spsm: UInt16, mtu: UInt16, mps: UInt16, initialCredits: UInt16, sourceCIDs: [UInt16]) {
        self.spsm = spsm
        self.mtu = mtu
        self.mps = mps
        self.initialCredits = initialCredits
        self.sourceCIDs = sourceCIDs
    }

    /// "Credit Based Connection Request SPSM 0x0027 MTU 64 octets MPS 64 octets initial credits 5 source CIDs 0x0040, 0x0041".
    public var description: String {
        "Credit Based Connection Request SPSM \(Hex.hex16(spsm)) MTU \(mtu) octets MPS \(mps) octets "
            + "initial credits \(initialCredits) source CIDs \(cidListText(sourceCIDs))"
    }
}

extension L2CAPCreditBasedConnectionRequest: SignalingCommandLayout {
    init() { self.init(spsm: 0, mtu: 0, mps: 0, initialCredits: 0, sourceCIDs: []) }

    mutating func layout<C: FieldLayoutCoder>(_ c: inout C) throws(C.Failure) {
        try c.field(&spsm, "SPSM")
        try c.field(&mtu, "MTU")
        try c.field(&mps, "MPS")
        try c.field(&initialCredits, "Initial Credits")
        try c.remaining(&sourceCIDs, "Source CID")
    }
}

/// L2CAP_CREDIT_BASED_CONNECTION_RSP, code 0x18 (Core v5.4, Vol 3, Part A, 4.26).
///
/// Data: MTU (2, octets), MPS (2, octets), Initial Credits (2), Result (2), then Destination CID
/// (2 octets each, one per Source CID of the request, in the same order; 0x0000 for a channel
/// that was refused).
public struct L2CAPCreditBasedConnectionResponse: Hashable, Sendable, CustomStringConvertible {
    /// The Result field (Table 4.18). Unknown values are kept raw.
    public struct Result: RawRepresentable, Hashable, Sendable, CustomStringConvertible, RawFieldValue {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// 0x0000: All connections successful.
        public static let allSuccessful = Result(rawValue: 0x0000)
        /// 0x0002: All connections refused – SPSM not supported.
        public static let spsmNotSupported = Result(rawValue: 0x0002)
        /// 0x0004: Some connections refused – insufficient resources available.
        public static let insufficientResources = Result(rawValue: 0x0004)
        /// 0x0005: All connections refused – insufficient authentication.
        public static let insufficientAuthentication = Result(rawValue: 0x0005)
        /// 0x0006: All connections refused – insufficient authorization.
        public static let insufficientAuthorization = Result(rawValue: 0x0006)
        /// 0x0007: All connections refused – encryption key size too short.
        public static let encryptionKeySizeTooShort = Result(rawValue: 0x0007)
        /// 0x0008: All connections refused – insufficient encryption.
        public static let insufficientEncryption = Result(rawValue: 0x0008)
        /// 0x0009: Some connections refused – invalid Source CID.
        public static let invalidSourceCID = Result(rawValue: 0x0009)
        /// 0x000A: Some connections refused – Source CID already allocated.
        public static let sourceCIDAlreadyAllocated = Result(rawValue: 0x000A)
        /// 0x000B: All connections refused – unacceptable parameters.
        public static let unacceptableParameters = Result(rawValue: 0x000B)
        /// 0x000C: All connections refused – invalid parameters.
        public static let invalidParameters = Result(rawValue: 0x000C)
        /// 0x000D: All connections pending – no further information available.
        public static let pendingNoFurtherInformation = Result(rawValue: 0x000D)
        /// 0x000E: All connections pending – authentication pending.
        public static let pendingAuthentication = Result(rawValue: 0x000E)
        /// 0x000F: All connections pending – authorization pending.
        public static let pendingAuthorization = Result(rawValue: 0x000F)

        /// The result's name in the specification's words, nil when reserved.
        public var name: String? {
            switch rawValue {
            case 0x0000: return "All connections successful"
            case 0x0002: return "All connections refused - SPSM not supported"
            case 0x0004: return "Some connections refused - insufficient resources available"
            case 0x0005: return "All connections refused - insufficient authentication"
            case 0x0006: return "All connections refused - insufficient authorization"
            case 0x0007: return "All connections refused - encryption key size too short"
            case 0x0008: return "All connections refused - insufficient encryption"
            case 0x0009: return "Some connections refused - invalid Source CID"
            case 0x000A: return "Some connections refused - Source CID already allocated"
            case 0x000B: return "All connections refused - unacceptable parameters"
            case 0x000C: return "All connections refused - invalid parameters"
            case 0x000D: return "All connections pending - no further information available"
            case 0x000E: return "All connections pending - authentication pending"
            case 0x000F: return "All connections pending - authorization pending"
            default: return nil
            }
        }

        /// "All connections successful (0x0000)" or "result 0x0001 (reserved)".
        public var description: String {
            name.map { "\($0) (\(Hex.hex16(rawValue)))" } ?? "result \(Hex.hex16(rawValue)) (reserved)"
        }
    }

    /// The code of this command, 0x18.
    public static let code = L2CAPSignalingCode.creditBasedConnectionResponse

    /// The largest SDU the responder can receive on each channel, in octets.
    public var mtu: UInt16
    /// The largest PDU payload the responder can receive, in octets.
    public var mps: UInt16
    /// The K-frames the requester may send on each channel before it needs more credits.
    public var initialCredits: UInt16
    /// Whether the channels were opened, and if not, why.
    public var result: Result
    /// The responder's endpoints, in the order of the request's Source CIDs; 0x0000 for a refused one.
    public var destinationCIDs: [UInt16]

    /// A response; MTU and MPS in octets, one Destination CID per requested channel.
    public init(mtu: UInt16, mps: UInt16, initialCredits: UInt16, result: Result, destinationCIDs: [UInt16]) {
        self.mtu = mtu
        self.mps = mps
        self.initialCredits = initialCredits
        self.result = result
        self.destinationCIDs = destinationCIDs
    }

    /// "Credit Based Connection Response MTU 64 octets MPS 64 octets initial credits 5 result All connections successful (0x0000) destination CIDs 0x0040".
    public var description: String {
        "Credit Based Connection Response MTU \(mtu) octets MPS \(mps) octets initial credits \(initialCredits) "
            + "result \(result) destination CIDs \(cidListText(destinationCIDs))"
    }
}

extension L2CAPCreditBasedConnectionResponse: SignalingCommandLayout {
    init() { self.init(mtu: 0, mps: 0, initialCredits: 0, result: .allSuccessful, destinationCIDs: []) }

    mutating func layout<C: FieldLayoutCoder>(_ c: inout C) throws(C.Failure) {
        try c.field(&mtu, "MTU")
        try c.field(&mps, "MPS")
        try c.field(&initialCredits, "Initial Credits")
        try c.field(&result, "Result")
        try c.remaining(&destinationCIDs, "Destination CID")
    }
}
