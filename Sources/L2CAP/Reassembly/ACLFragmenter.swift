import BLECore
import HCI

/// Cuts L2CAP PDUs into HCI ACL Data packets no longer than the controller accepts
/// (Core v5.4, Vol 3, Part A, 7.2.1; Vol 4, Part E, 5.4.2).
///
/// The first packet of a PDU carries Packet_Boundary_Flag 0b00 (first non-automatically-flushable,
/// what a host sends on LE); the rest carry 0b01 (continuing). The limit is the
/// LE_ACL_Data_Packet_Length the controller returned from HCI LE Read Buffer Size (octets of
/// data per packet, not counting the 4-octet ACL header).
public struct ACLFragmenter: Hashable, Sendable {
    /// The most data octets one ACL Data packet may carry (LE_ACL_Data_Packet_Length).
    public let maximumDataLength: Int

    /// A fragmenter for packets of at most `maximumDataLength` data octets.
    ///
    /// - Returns: nil unless 1...65535. A controller that answers LE_ACL_Data_Packet_Length 0
    ///   shares its BR/EDR buffers: use ACL_Data_Packet_Length from HCI Read Buffer Size instead.
    public init?(maximumDataLength: Int) {
        guard (1...Int(UInt16.max)).contains(maximumDataLength) else { return nil }
        self.maximumDataLength = maximumDataLength
    }

    /// The ACL Data packets that carry `frame` on `handle`, in order.
    ///
    /// - Parameter firstPacketBoundary: the flag of the first packet: 0b00 (the default) from a
    ///   host; a controller (such as a virtual one) sends 0b10 instead.
    public func fragment(_ frame: L2CAPBasicFrame, handle: UInt16,
                         firstPacketBoundary: HCIACLDataPacket.PacketBoundary = .firstNonFlushable) -> [HCIACLDataPacket] {
        fragment(pdu: frame.encoded, handle: handle, firstPacketBoundary: firstPacketBoundary)
    }

    /// The ACL Data packets that carry the encoded L2CAP PDU `pdu` on `handle`, in order; an
    /// empty `pdu` gives one empty start packet.
    public func fragment(pdu: [UInt8], handle: UInt16,
                         firstPacketBoundary: HCIACLDataPacket.PacketBoundary = .firstNonFlushable) -> [HCIACLDataPacket] {
        var packets: [HCIACLDataPacket] = []
        packets.reserveCapacity(max(1, (pdu.count + maximumDataLength - 1) / maximumDataLength))
        var start = 0
        repeat {
            let end = min(pdu.count, start + maximumDataLength)
            packets.append(HCIACLDataPacket(handle: handle,
                                            packetBoundary: start == 0 ? firstPacketBoundary : .continuing,
                                            data: Array(pdu[start..<end])))
            start = end
        } while start < pdu.count
        return packets
    }
}
