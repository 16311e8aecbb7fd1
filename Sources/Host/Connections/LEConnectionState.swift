import HCI

/// What a host-mode link is now: its timing, data length and PHYs, as the controller last
/// reported them (Core v5.4, Vol 4, Part E, 7.7.65.1, 7.7.65.3, 7.7.65.7, 7.7.65.12).
public struct LEConnectionState: Hashable, Sendable, CustomStringConvertible {
    /// Connection_Interval, in 1.25 ms units (7.5 ms to 4 s).
    public var connectionInterval: LEConnectionInterval
    /// Peripheral_Latency: connection events the peripheral may skip.
    public var peripheralLatency: UInt16
    /// Supervision_Timeout, in 10 ms units (100 ms to 32 s).
    public var supervisionTimeout: LESupervisionTimeout
    /// The largest link-layer payload this side sends, in octets (27 until a data length update).
    public var maxTXOctets: UInt16 = 27
    /// The largest link-layer payload this side receives, in octets.
    public var maxRXOctets: UInt16 = 27
    /// The transmitter PHY (LE 1M until a PHY update).
    public var txPHY: LEPHY = .le1M
    /// The receiver PHY.
    public var rxPHY: LEPHY = .le1M

    /// A state from its timing; data length 27 octets and the LE 1M PHY, as every link starts.
    public init(connectionInterval: LEConnectionInterval, peripheralLatency: UInt16, supervisionTimeout: LESupervisionTimeout) {
        self.connectionInterval = connectionInterval
        self.peripheralLatency = peripheralLatency
        self.supervisionTimeout = supervisionTimeout
    }

    /// "interval 30 ms, latency 0, timeout 420 ms, 27/27 octets, LE 1M".
    public var description: String {
        "interval \(connectionInterval), latency \(peripheralLatency), timeout \(supervisionTimeout), "
            + "\(maxTXOctets)/\(maxRXOctets) octets, \(txPHY == rxPHY ? "\(txPHY)" : "TX \(txPHY) RX \(rxPHY)")"
    }
}
