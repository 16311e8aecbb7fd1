/// Faults one ``VirtualController`` suffers, settable at any time with
/// ``VirtualController/setFaults(_:)``. Every random choice they make comes from the radio's
/// seeded generator, so a run with faults is as reproducible as one without.
///
/// - ``packetDropRate``: the fraction (0...1) of link-layer PDUs sent to this controller that it
///   fails to receive. The link layer acknowledges and retransmits (Vol 6, Part B, 4.5.9), so
///   data still arrives whole, in order and once, only later; a connection event ends at the
///   first lost PDU. When no PDU gets through for the supervision timeout, the link ends with
///   Connection Timeout (0x08). Empty connection events are not simulated (see
///   ``VirtualRadio``), so an idle link does not time out from drops alone: take the controller
///   out of range for that.
/// - ``hciLatency``: extra delay, in virtual time, on every packet from this controller to its
///   host (a slow UART); order is kept.
public struct VirtualFaults: Hashable, Sendable {
    /// The fraction of link-layer PDUs to this controller that are lost, 0 (none) to 1 (all).
    public var packetDropRate: Double
    /// Added to the delivery time of every packet to the host.
    public var hciLatency: Duration

    /// Faults as given; the defaults are none.
    public init(packetDropRate: Double = 0, hciLatency: Duration = .zero) {
        self.packetDropRate = min(max(packetDropRate, 0), 1)
        self.hciLatency = max(hciLatency, .zero)
    }

    /// No faults.
    public static let none = VirtualFaults()
}
