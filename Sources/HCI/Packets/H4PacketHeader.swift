/// What the octets at the start of an H4 frame say about the packet there: its type and its
/// size, read from the packet indicator and the packet header's length field
/// (Core v5.4, Vol 4, Part A, 2; the headers in Vol 4, Part E, 5.4).
///
/// One octet of length for commands (Parameter_Total_Length), events (Parameter_Total_Length)
/// and synchronous data (Data_Total_Length); two octets for ACL data (Data_Total_Length) and ISO
/// data (ISO_Data_Load_Length, its low 14 bits). Shared by ``H4StreamDeframer`` and
/// ``H4StreamReader`` so that both frame alike.
enum H4PacketHeader {
    /// What the octets at one position say.
    enum Reading: Equatable {
        /// Too few octets yet to read the indicator and the whole header.
        case needsMore
        /// The indicator is not 0x01...0x05.
        case unknownIndicator(UInt8)
        /// The header announces `size` octets (header and body, without indicator), more than allowed.
        case tooLarge(type: HCIPacketType, size: Int)
        /// A packet of `size` octets (header and body, without indicator) starts here.
        case packet(type: HCIPacketType, size: Int)
    }

    /// The header length of each packet type, in octets (nil: not a packet type).
    static func headerLength(_ type: HCIPacketType) -> Int? {
        switch type {
        case .command, .sco: return 3
        case .acl, .iso: return 4
        case .event: return 2
        default: return nil
        }
    }

    /// Reads the indicator at `start` in `octets` and, once it is all there, the header after it.
    ///
    /// - Parameter maximumSize: the largest packet accepted, header included, indicator excluded.
    static func read(_ octets: [UInt8], at start: Int, maximumSize: Int) -> Reading {
        guard start < octets.count else { return .needsMore }
        let indicator = octets[start]
        let type = HCIPacketType(rawValue: indicator)
        guard let headerLength = headerLength(type) else { return .unknownIndicator(indicator) }
        let header = start + 1
        guard octets.count - header >= headerLength else { return .needsMore }
        let bodyLength: Int
        switch type {
        case .command, .sco: bodyLength = Int(octets[header + 2])
        case .event: bodyLength = Int(octets[header + 1])
        case .acl: bodyLength = Int(octets[header + 2]) | Int(octets[header + 3]) << 8
        default: bodyLength = (Int(octets[header + 2]) | Int(octets[header + 3]) << 8) & 0x3FFF
        }
        let size = headerLength + bodyLength
        guard size <= maximumSize else { return .tooLarge(type: type, size: size) }
        return .packet(type: type, size: size)
    }
}
