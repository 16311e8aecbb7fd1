/// The connection parameters a central asks for, as LE Create Connection, LE Extended Create
/// Connection (per PHY) and LE Connection Update carry them, in this order
/// (Core v5.4, Vol 4, Part E, 7.8.12, 7.8.18 and 7.8.66).
///
/// Layout: Connection_Interval_Min (2, 1.25 ms units), Connection_Interval_Max (2, 1.25 ms
/// units), Max_Latency (2, connection events), Supervision_Timeout (2, 10 ms units),
/// Min_CE_Length (2, 0.625 ms units), Max_CE_Length (2, 0.625 ms units).
public struct LEConnectionParameters: HCIParameterLayout, CustomStringConvertible {
    /// Connection_Interval_Min, 7.5 ms...4 s.
    public var connectionIntervalMin: LEConnectionInterval
    /// Connection_Interval_Max, 7.5 ms...4 s.
    public var connectionIntervalMax: LEConnectionInterval
    /// Max_Latency: connection events the peripheral may skip, 0...499.
    public var maxLatency: UInt16
    /// Supervision_Timeout, 100 ms...32 s; longer than (1 + Max_Latency) × interval × 2.
    public var supervisionTimeout: LESupervisionTimeout
    /// Min_CE_Length: the shortest connection event wanted (a hint).
    public var minCELength: LESlotDuration
    /// Max_CE_Length: the longest connection event wanted (a hint).
    public var maxCELength: LESlotDuration

    /// A value from its fields.
    public init(connectionIntervalMin: LEConnectionInterval, connectionIntervalMax: LEConnectionInterval,
                maxLatency: UInt16 = 0, supervisionTimeout: LESupervisionTimeout,
                minCELength: LESlotDuration = .init(rawValue: 0), maxCELength: LESlotDuration = .init(rawValue: 0)) {
        self.connectionIntervalMin = connectionIntervalMin
        self.connectionIntervalMax = connectionIntervalMax
        self.maxLatency = maxLatency
        self.supervisionTimeout = supervisionTimeout
        self.minCELength = minCELength
        self.maxCELength = maxCELength
    }

    /// Every field zero or empty: the value decoding starts from.
    public init() {
        self.init(connectionIntervalMin: .init(rawValue: 0), connectionIntervalMax: .init(rawValue: 0),
                  supervisionTimeout: .init(rawValue: 0))
    }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&connectionIntervalMin, "Connection_Interval_Min")
        try coder.code(&connectionIntervalMax, "Connection_Interval_Max")
        try coder.code(&maxLatency, "Max_Latency")
        try coder.code(&supervisionTimeout, "Supervision_Timeout")
        try coder.code(&minCELength, "Min_CE_Length")
        try coder.code(&maxCELength, "Max_CE_Length")
    }

    /// The value on one line, for logs and capture decoders.
    public var description: String { fieldsDescription }
}
