import HCI
import L2CAP

/// Connection parameters a central or peripheral asks for: a connection interval range, the
/// peripheral latency and the supervision timeout (Core v5.4, Vol 6, Part B, 4.5.1 and 4.5.2;
/// Vol 4, Part E, 7.8.18; Vol 3, Part A, 4.20).
public struct LEConnectionParametersRequest: Hashable, Sendable, CustomStringConvertible {
    /// Connection_Interval_Min, in 1.25 ms units (6...3200: 7.5 ms to 4 s).
    public var intervalMin: UInt16
    /// Connection_Interval_Max, in 1.25 ms units (intervalMin...3200).
    public var intervalMax: UInt16
    /// Peripheral latency: connection events the peripheral may skip (0...499).
    public var latency: UInt16
    /// Supervision timeout, in 10 ms units (10...3200: 100 ms to 32 s).
    public var timeout: UInt16

    /// A request; intervals in 1.25 ms units, latency in events, timeout in 10 ms units.
    public init(intervalMin: UInt16, intervalMax: UInt16, latency: UInt16 = 0, timeout: UInt16) {
        self.intervalMin = intervalMin
        self.intervalMax = intervalMax
        self.latency = latency
        self.timeout = timeout
    }

    /// The request of an L2CAP Connection Parameter Update Request.
    public init(_ request: L2CAPConnectionParameterUpdateRequest) {
        self.init(intervalMin: request.intervalMin, intervalMax: request.intervalMax, latency: request.latency, timeout: request.timeout)
    }

    /// Why these values break the Core specification's rules, or nil when they keep them: the
    /// ranges above, Min ≤ Max, and a supervision timeout longer than
    /// (1 + latency) × intervalMax × 2 (Vol 6, Part B, 4.5.2).
    public var violation: String? {
        guard (6...3200).contains(intervalMin), (6...3200).contains(intervalMax) else {
            return "connection interval \(intervalMin)...\(intervalMax) × 1.25 ms is outside 6...3200"
        }
        guard intervalMin <= intervalMax else { return "connection interval min \(intervalMin) is above max \(intervalMax)" }
        guard latency <= 499 else { return "peripheral latency \(latency) is above 499" }
        guard (10...3200).contains(timeout) else { return "supervision timeout \(timeout) × 10 ms is outside 10...3200" }
        // Both sides in µs: timeout × 10 ms > (1 + latency) × intervalMax × 1.25 ms × 2.
        guard Int(timeout) * 10_000 > (1 + Int(latency)) * Int(intervalMax) * 1250 * 2 else {
            return "supervision timeout \(Int(timeout) * 10) ms is not longer than (1 + \(latency)) × \(Double(intervalMax) * 1.25) ms × 2"
        }
        return nil
    }

    /// The HCI connection parameters for LE Connection Update or LE Create Connection (CE
    /// lengths 0).
    public var hciParameters: LEConnectionParameters {
        LEConnectionParameters(connectionIntervalMin: LEConnectionInterval(rawValue: intervalMin),
                               connectionIntervalMax: LEConnectionInterval(rawValue: intervalMax),
                               maxLatency: latency, supervisionTimeout: LESupervisionTimeout(rawValue: timeout),
                               minCELength: LESlotDuration(rawValue: 0), maxCELength: LESlotDuration(rawValue: 0))
    }

    /// The L2CAP request a peripheral sends for these values.
    public var l2capRequest: L2CAPConnectionParameterUpdateRequest {
        L2CAPConnectionParameterUpdateRequest(intervalMin: intervalMin, intervalMax: intervalMax, latency: latency, timeout: timeout)
    }

    /// "interval 30-50 ms, latency 0, timeout 4000 ms".
    public var description: String {
        let min = Double(intervalMin) * 1.25, max = Double(intervalMax) * 1.25
        let interval = intervalMin == intervalMax ? "\(min)" : "\(min)-\(max)"
        return "interval \(interval) ms, latency \(latency), timeout \(Int(timeout) * 10) ms"
    }
}

/// What a central accepts when a peripheral asks for connection parameters (Core v5.4, Vol 3,
/// Part A, 4.20 and 4.21): bounds the user sets, inside the specification's ranges.
public struct LEConnectionParameterLimits: Hashable, Sendable {
    /// The connection intervals accepted, in 1.25 ms units: a request's whole range must fall
    /// inside. 6...3200 (every valid interval) by default.
    public var intervals: ClosedRange<UInt16>
    /// The largest peripheral latency accepted (499 by default).
    public var maximumLatency: UInt16
    /// The supervision timeouts accepted, in 10 ms units (10...3200 by default).
    public var timeouts: ClosedRange<UInt16>

    /// Limits; the defaults accept every valid request.
    public init(intervals: ClosedRange<UInt16> = 6...3200, maximumLatency: UInt16 = 499, timeouts: ClosedRange<UInt16> = 10...3200) {
        self.intervals = intervals
        self.maximumLatency = maximumLatency
        self.timeouts = timeouts
    }

    /// Whether `request` is valid and within these limits.
    public func accepts(_ request: LEConnectionParametersRequest) -> Bool {
        request.violation == nil && intervals.contains(request.intervalMin) && intervals.contains(request.intervalMax)
            && request.latency <= maximumLatency && timeouts.contains(request.timeout)
    }
}
