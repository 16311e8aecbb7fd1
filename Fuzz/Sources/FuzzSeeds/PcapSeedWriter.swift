import HCI

/// Writes HCI packets as pcap and pcapng files of LINKTYPE_BLUETOOTH_HCI_H4_WITH_PHDR (201): each
/// packet a 4-octet big-endian direction (0 sent by the host, 1 received) and then its H4 frame.
/// Timestamps are one millisecond apart from 2025-01-01. Only the seed corpora use it.
enum PcapSeedWriter {

    static let start: UInt64 = 1_735_689_600   // 2025-01-01T00:00:00Z, in seconds

    static func frame(_ packet: (type: HCIPacketType, payload: [UInt8], received: Bool)) -> [UInt8] {
        [0, 0, 0, packet.received ? 1 : 0, packet.type.rawValue] + packet.payload
    }

    /// A little-endian, microsecond pcap file.
    static func pcap(_ packets: [(type: HCIPacketType, payload: [UInt8], received: Bool)]) -> [UInt8] {
        var out: [UInt8] = [0xD4, 0xC3, 0xB2, 0xA1]
        out += le(2, 2) + le(4, 2) + le(0, 4) + le(0, 4) + le(262_144, 4) + le(201, 4)
        for (index, packet) in packets.enumerated() {
            let data = frame(packet)
            out += le(start, 4) + le(UInt64(index) * 1000, 4) + le(UInt64(data.count), 4) + le(UInt64(data.count), 4) + data
        }
        return out
    }

    /// A little-endian pcapng file: a Section Header Block, one Interface Description Block
    /// (microsecond timestamps, the default), then an Enhanced Packet Block per packet.
    static func pcapng(_ packets: [(type: HCIPacketType, payload: [UInt8], received: Bool)]) -> [UInt8] {
        var out = block(0x0A0D_0D0A, le(0x1A2B_3C4D, 4) + le(1, 2) + le(0, 2) + le(UInt64.max, 8))
        out += block(1, le(201, 2) + le(0, 2) + le(262_144, 4))
        for (index, packet) in packets.enumerated() {
            let data = frame(packet)
            let time = start * 1_000_000 + UInt64(index) * 1000
            let padded = data + [UInt8](repeating: 0, count: (4 - data.count % 4) % 4)
            out += block(6, le(0, 4) + le(time >> 32, 4) + le(time & 0xFFFF_FFFF, 4) + le(UInt64(data.count), 4) + le(UInt64(data.count), 4) + padded)
        }
        return out
    }

    static func block(_ type: UInt64, _ body: [UInt8]) -> [UInt8] {
        let length = UInt64(12 + body.count)
        return le(type, 4) + le(length, 4) + body + le(length, 4)
    }

    static func le(_ value: UInt64, _ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
    }
}
