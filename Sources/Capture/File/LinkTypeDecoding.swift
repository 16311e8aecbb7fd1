import BLECore
import HCI

/// What one record's octets mean under a link type: the packet, plus the direction and
/// controller index when the octets themselves say.
struct DecodedPayload {
    var packet: CapturedPacket
    var direction: CaptureDirection
    var controllerIndex: UInt16?
}

enum LinkTypeDecoding {
    /// An H4 packet: the packet indicator, then the packet (Core v5.4, Vol 4, Part A, 2).
    static func h4(_ octets: ArraySlice<UInt8>, linkType: LinkType) -> CapturedPacket {
        guard let indicator = octets.first else {
            return .malformed(linkType: linkType, payload: [],
                              error: .truncated(field: "HCI packet indicator", offset: 0, needed: 1, available: 0))
        }
        return .hci(type: HCIPacketType(rawValue: indicator), payload: Array(octets.dropFirst()))
    }

    /// A Linux monitor record: packet opcodes become HCI packets with their direction.
    static func monitor(opcode: MonitorOpcode, index: UInt16, payload: ArraySlice<UInt8>) -> DecodedPayload {
        if let (type, direction) = opcode.hciPacket {
            return DecodedPayload(packet: .hci(type: type, payload: Array(payload)), direction: direction,
                                  controllerIndex: index)
        }
        return DecodedPayload(packet: .monitor(opcode: opcode, payload: Array(payload)), direction: .unknown,
                              controllerIndex: index)
    }

    /// A pcap or pcapng record's octets under a LINKTYPE_ value.
    static func decode(_ octets: ArraySlice<UInt8>, linkType: LinkType) -> DecodedPayload {
        switch linkType {
        case .bluetoothHCIH4:
            return DecodedPayload(packet: h4(octets, linkType: linkType), direction: .unknown)
        case .bluetoothHCIH4WithPHDR:
            guard octets.count >= 4 else {
                return DecodedPayload(packet: .malformed(linkType: linkType, payload: Array(octets),
                    error: .truncated(field: "Direction", offset: 0, needed: 4, available: octets.count)),
                    direction: .unknown)
            }
            let s = octets.startIndex
            // The direction is big-endian; only its least significant bit is defined.
            let received = octets[s + 3] & 1 != 0
            return DecodedPayload(packet: h4(octets[(s + 4)...], linkType: linkType),
                                  direction: received ? .controllerToHost : .hostToController)
        case .bluetoothLinuxMonitor:
            guard octets.count >= 4 else {
                let field = octets.count < 2 ? "Adapter ID" : "Opcode"
                let offset = octets.count < 2 ? 0 : 2
                return DecodedPayload(packet: .malformed(linkType: linkType, payload: Array(octets),
                    error: .truncated(field: field, offset: offset, needed: 2, available: octets.count - offset)),
                    direction: .unknown)
            }
            let s = octets.startIndex
            let index = UInt16(octets[s]) << 8 | UInt16(octets[s + 1])
            let opcode = MonitorOpcode(rawValue: UInt16(octets[s + 2]) << 8 | UInt16(octets[s + 3]))
            return monitor(opcode: opcode, index: index, payload: octets[(s + 4)...])
        case .ppi where octets.count >= 8 && !isLinkLayerInsidePPI(octets):
            // PPI around a link type that is not the LE link layer: not ours to decode.
            return DecodedPayload(packet: .unsupported(linkType: linkType, payload: Array(octets)), direction: .unknown)
        case .bluetoothLELL, .bluetoothLELLWithPHDR, .ppi, .nordicBLE:
            do {
                let record = try LinkLayerRecord(decoding: octets, linkType: linkType)
                // The direction of a data PDU, where the capture header gives it.
                return DecodedPayload(packet: .linkLayer(record), direction: record.sniffer.direction)
            } catch {
                return DecodedPayload(packet: .malformed(linkType: linkType, payload: Array(octets), error: error),
                                      direction: .unknown)
            }
        default:
            return DecodedPayload(packet: .unsupported(linkType: linkType, payload: Array(octets)), direction: .unknown)
        }
    }

    /// Whether a PPI header's pph_dlt (octets 4...7, little-endian) is 251, 256 or 147.
    private static func isLinkLayerInsidePPI(_ octets: ArraySlice<UInt8>) -> Bool {
        let s = octets.startIndex
        let dlt = LinkType(rawValue: UInt32(octets[s + 4]) | UInt32(octets[s + 5]) << 8
                           | UInt32(octets[s + 6]) << 16 | UInt32(octets[s + 7]) << 24)
        return dlt == .bluetoothLELL || dlt == .bluetoothLELLWithPHDR || dlt == .user0
    }
}
