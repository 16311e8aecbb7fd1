import HCI

/// An ``HCITransport`` that can also carry packets without suspending, on the thread that has
/// them: what ``HCITransportBridge`` uses between two such transports, so that a packet crosses
/// the bridge with no task hand-off (Core v5.4, Vol 4, Part A: the transport carries packets
/// unchanged and in order).
///
/// `H4StreamTransport` (LinuxBluetooth) and `VirtualHCIPort` (VirtualRadio) conform.
public protocol HCIDirectTransport: HCITransport {
    /// Sends `packet` now, in order after every packet sent before it, without waiting for it
    /// to be written (what the other side cannot take yet waits in the transport, in order).
    ///
    /// - Returns: false when the transport has ended (or the send failed and ended it).
    func sendNow(_ packet: HCIPacket) -> Bool

    /// From now on hands each packet from the other side to `receiver`, on the thread that has
    /// it, instead of yielding it to ``HCITransport/packets``; `packets` still finishes when the
    /// transport ends. Call it once.
    ///
    /// - Returns: how many packets `packets` was given before: its reader takes those first,
    ///   then what `receiver` gets, to keep the order.
    func redirectPackets(to receiver: @escaping @Sendable (HCIPacket) -> Void) -> Int
}
