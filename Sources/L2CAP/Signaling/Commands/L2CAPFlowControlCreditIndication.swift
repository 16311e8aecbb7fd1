import BLECore

/// L2CAP_FLOW_CONTROL_CREDIT_IND, code 0x16 (Core v5.4, Vol 3, Part A, 4.24): more credits for
/// a credit-based channel.
///
/// Data, 4 octets: CID (2, the sender's source CID of the channel), Credits (2, K-frames the
/// peer may now send in addition, 1...65535; zero is kept as received).
public struct L2CAPFlowControlCreditIndication: Hashable, Sendable, CustomStringConvertible {
    /// The code of this command, 0x16.
    public static let code = L2CAPSignalingCode.flowControlCreditIndication

    /// The channel, named by the sender's endpoint.
    public var cid: UInt16
    /// The credits granted.
    public var credits: UInt16

    /// Grants `credits` more K-frames on the channel the sender names `cid`.
    public init(cid: UInt16, credits: UInt16) {
        self.cid = cid
        self.credits = credits
    }

    /// "Flow Control Credit Indication CID 0x0040 credits 5".
    public var description: String { "Flow Control Credit Indication CID \(cidText(cid)) credits \(credits)" }
}

extension L2CAPFlowControlCreditIndication: SignalingCommandLayout {
    init() { self.init(cid: 0, credits: 0) }

    mutating func layout<C: FieldLayoutCoder>(_ c: inout C) throws(C.Failure) {
        try c.field(&cid, "CID")
        try c.field(&credits, "Credits")
    }
}
