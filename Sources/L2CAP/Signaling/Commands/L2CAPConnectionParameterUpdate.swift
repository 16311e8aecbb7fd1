import BLECore

/// L2CAP_CONNECTION_PARAMETER_UPDATE_REQ, code 0x12 (Core v5.4, Vol 3, Part A, 4.20): a
/// Peripheral asks the Central for new connection parameters.
///
/// Data, 8 octets: Interval Min (2) and Interval Max (2) in 1.25 ms units (6...3200, 7.5 ms to
/// 4 s), Latency (2, connection events the Peripheral may skip, 0...499), Timeout (2, the
/// supervision timeout in 10 ms units, 10...3200, 100 ms to 32 s). Values are kept as received;
/// range checks belong to the Central that answers.
public struct L2CAPConnectionParameterUpdateRequest: Hashable, Sendable, CustomStringConvertible {
    /// The code of this command, 0x12.
    public static let code = L2CAPSignalingCode.connectionParameterUpdateRequest

    /// The smallest connection interval wanted, in 1.25 ms units.
    public var intervalMin: UInt16
    /// The largest connection interval wanted, in 1.25 ms units.
    public var intervalMax: UInt16
    /// The Peripheral latency: connection events the Peripheral may skip.
    public var latency: UInt16
    /// The supervision timeout, in 10 ms units.
    public var timeout: UInt16

    /// A request; intervals in 1.25 ms units, latency in connection events, timeout in 10 ms units.
    public init(intervalMin: UInt16, intervalMax: UInt16, latency: UInt16, timeout: UInt16) {
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.latency = latency
        self.timeout = timeout
    }

    /// The supervision timeout in milliseconds.
    public var timeoutMilliseconds: Int { Int(timeout) * 10 }

    /// "Connection Parameter Update Request interval 7.5-15 ms latency 0 timeout 2000 ms"; the
    /// interval is one number when Min equals Max.
    public var description: String {
        let interval = intervalMin == intervalMax
            ? millisecondsFrom1250Microseconds(intervalMin)
            : "\(millisecondsFrom1250Microseconds(intervalMin))-\(millisecondsFrom1250Microseconds(intervalMax))"
        return "Connection Parameter Update Request interval \(interval) ms latency \(latency) timeout \(timeoutMilliseconds) ms"
    }
}

extension L2CAPConnectionParameterUpdateRequest: SignalingCommandLayout {
    init() { self.init(intervalMin: 0, intervalMax: 0, latency: 0, timeout: 0) }

    mutating func layout<C: FieldLayoutCoder>(_ c: inout C) throws(C.Failure) {
        try c.field(&intervalMin, "Interval Min")
        try c.field(&intervalMax, "Interval Max")
        try c.field(&latency, "Latency")
        try c.field(&timeout, "Timeout")
    }
}

/// L2CAP_CONNECTION_PARAMETER_UPDATE_RSP, code 0x13 (Core v5.4, Vol 3, Part A, 4.21): the
/// Central's answer. Data: Result (2 octets).
public struct L2CAPConnectionParameterUpdateResponse: Hashable, Sendable, CustomStringConvertible {
    /// The Result field. Unknown values are kept raw.
    public struct Result: RawRepresentable, Hashable, Sendable, CustomStringConvertible, RawFieldValue {
        public let rawValue: UInt16
        public init(rawValue: UInt16) { self.rawValue = rawValue }

        /// 0x0000: Connection Parameters accepted.
        public static let accepted = Result(rawValue: 0x0000)
        /// 0x0001: Connection Parameters rejected.
        public static let rejected = Result(rawValue: 0x0001)

        /// "accepted", "rejected", or "result 0x0002" when reserved.
        public var description: String {
            switch self {
            case .accepted: return "accepted"
            case .rejected: return "rejected"
            default: return "result \(Hex.hex16(rawValue))"
            }
        }
    }

    /// The code of this command, 0x13.
    public static let code = L2CAPSignalingCode.connectionParameterUpdateResponse

    /// Whether the parameters were accepted.
    public var result: Result

    /// A response with `result`.
    public init(result: Result) { self.result = result }

    /// "Connection Parameter Update Response accepted".
    public var description: String { "Connection Parameter Update Response \(result)" }
}

extension L2CAPConnectionParameterUpdateResponse: SignalingCommandLayout {
    init() { self.init(result: .accepted) }

    mutating func layout<C: FieldLayoutCoder>(_ c: inout C) throws(C.Failure) {
        try c.field(&result, "Result")
    }
}
