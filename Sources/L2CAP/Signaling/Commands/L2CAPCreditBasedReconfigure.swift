import BLECore

/// L2CAP_CREDIT_BASED_RECONFIGURE_REQ, code 0x19 (Core v5.4, Vol 3, Part A, 4.27): change the
/// MTU and MPS of enhanced credit-based channels.
///
/// Data: MTU (2, octets, at least 64), MPS (2, octets, at least 64), then Destination CID (2
/// octets each, 1...5 of them: the channels, named by the receiver's endpoints).
public struct L2CAPCreditBasedReconfigureRequest: Hashable, Sendable, CustomStringConvertible {
    /// The code of this command, 0x19.
    public static let code = L2CAPSignalingCode.creditBasedReconfigureRequest

    /// The new largest SDU the requester can receive, in octets.
    public var mtu: UInt16
    /// The new largest PDU payload the requester can receive, in octets.
    public var mps: UInt16
    /// The channels to change, named by the receiver's endpoints.
    public var destinationCIDs: [UInt16]

    /// A request; MTU and MPS in octets, the channels by the receiver's endpoints (1...5).
    public init(mtu: UInt16, mps: UInt16, destinationCIDs: [UInt16]) {
        self.mtu = mtu
        self.mps = mps
        self.destinationCIDs = destinationCIDs
    }

    /// "Credit Based Reconfigure Request MTU 100 octets MPS 100 octets destination CIDs 0x0040, 0x0041".
    public var description: String {
        "Credit Based Reconfigure Request MTU \(mtu) octets MPS \(mps) octets destination CIDs \(cidListText(destinationCIDs))"
    }
}

extension L2CAPCreditBasedReconfigureRequest: SignalingCommandLayout {
    init() { self.init(mtu: 0, mps: 0, destinationCIDs: []) }

    mutating func layout<C: FieldLayoutCoder>(_ c: inout C) throws(C.Failure) {
        try c.field(&mtu, "MTU")
        try c.field(&mps, "MPS")
        try c.remaining(&destinationCIDs, "Destination CID")
    }
}

/// L2CAP_CREDIT_BASED_RECONFIGURE_RSP, code 0x1A (Core v5.4, Vol 3, Part A, 4.28). Data: Result (2 octets).
public struct L2CAPCreditBasedReconfigureResponse: Hashable, Sendable, CustomStringConvertible {
    /// The Result field (Table 4.20). Unknown values are kept raw.
    public struct Result: RawRepresentable, Hashable, Sendable, CustomStringConvertible, RawFieldValue {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// 0x0000: Reconfiguration successful.
        public static let success = Result(rawValue: 0x0000)
        /// 0x0001: Reconfiguration failed – reduction in size of MTU not allowed.
        public static let mtuReductionNotAllowed = Result(rawValue: 0x0001)
        /// 0x0002: Reconfiguration failed – reduction in size of MPS not allowed for more than one channel at a time.
        public static let mpsReductionNotAllowed = Result(rawValue: 0x0002)
        /// 0x0003: Reconfiguration failed – one or more Destination CIDs invalid.
        public static let invalidDestinationCID = Result(rawValue: 0x0003)
        /// 0x0004: Reconfiguration failed – other unacceptable parameters.
        public static let unacceptableParameters = Result(rawValue: 0x0004)

        /// The result's name in the specification's words, nil when reserved.
        public var name: String? {
            switch rawValue {
            case 0x0000: return "Reconfiguration successful"
            case 0x0001: return "Reconfiguration failed - reduction in size of MTU not allowed"
            case 0x0002: return "Reconfiguration failed - reduction in size of MPS not allowed for more than one channel at a time"
            case 0x0003: return "Reconfiguration failed - one or more Destination CIDs invalid"
            case 0x0004: return "Reconfiguration failed - other unacceptable parameters"
            default: return nil
            }
        }

        /// "Reconfiguration successful (0x0000)" or "result 0x0005 (reserved)".
        public var description: String {
            name.map { "\($0) (\(Hex.hex16(rawValue)))" } ?? "result \(Hex.hex16(rawValue)) (reserved)"
        }
    }

    /// The code of this command, 0x1A.
    public static let code = L2CAPSignalingCode.creditBasedReconfigureResponse

    /// Whether the channels were reconfigured, and if not, why.
    public var result: Result

    /// A response with `result`.
    public init(result: Result) { self.result = result }

    /// "Credit Based Reconfigure Response Reconfiguration successful (0x0000)".
    public var description: String { "Credit Based Reconfigure Response \(result)" }
}

extension L2CAPCreditBasedReconfigureResponse: SignalingCommandLayout {
    init() { self.init(result: .success) }

    mutating func layout<C: FieldLayoutCoder>(_ c: inout C) throws(C.Failure) {
        try c.field(&result, "Result")
    }
}
