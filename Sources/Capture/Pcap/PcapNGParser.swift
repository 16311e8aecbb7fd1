import BLECore

/// Reads pcapng blocks (draft-ietf-opsawg-pcapng).
///
/// Every block: Block Type (4), Block Total Length (4, a multiple of 4, at least 12), body,
/// Block Total Length again. A Section Header Block (type 0x0A0D0D0A) starts each section
/// and sets its byte order through its Byte-Order Magic 0x1A2B3C4D; it forgets the previous
/// section's interfaces. Interface Description Blocks (type 1) number the section's
/// interfaces from 0 and give each a link type, a snapshot length and, in options, a
/// timestamp resolution (`if_tsresol`, code 9; default microseconds) and offset
/// (`if_tsoffset`, code 14, seconds). Packets come in Enhanced Packet Blocks (type 6),
/// Simple Packet Blocks (type 3, interface 0, no timestamp) and the obsolete Packet Block
/// (type 2). Every other block type is skipped.
///
/// The direction bits of `epb_flags` (option 2: 01 inbound, 10 outbound) give the direction
/// of HCI packets whose link type carries none (LINKTYPE 187): inbound means received by
/// the host (controller to host).
struct PcapNGParser: Sendable {
    struct Interface: Sendable {
        var linkType: LinkType
        var snapLength: UInt32
        var ticksPerSecond: UInt64 = 1_000_000
        var offsetSeconds: Int64 = 0
        /// An if_tsresol this reader cannot count in: it spoils the timestamps of this
        /// interface's packets, not the file.
        var resolutionError: CaptureError?
    }

    enum Block {
        case section
        case interface(Interface)
        case packet(CaptureRecord)
        case other
    }

    static let sectionHeaderType: UInt32 = 0x0A0D_0D0A
    static let byteOrderMagic: UInt32 = 0x1A2B_3C4D
    /// The largest block this reader accepts (16 MiB, as Wireshark).
    static let maximumBlockLength: UInt32 = 16 * 1024 * 1024

    var offset = 0
    var bigEndian = false
    var interfaces: [Interface] = []

    mutating func next(_ bytes: [UInt8], index: Int) throws(CaptureError) -> CaptureRecord? {
        while let block = try readBlock(bytes, index: index) {
            if case let .packet(record) = block { return record }
        }
        return nil
    }

    /// Reads the block at ``offset`` and moves past it; nil at the end of the file.
    mutating func readBlock(_ bytes: [UInt8], index: Int) throws(CaptureError) -> Block? {
        let start = offset
        let remaining = bytes.count - start
        if remaining == 0 { return nil }
        guard remaining >= 8 else {
            throw .truncated(field: "pcapng block header", offset: start, needed: 8, available: remaining)
        }
        // The Section Header Block's type reads the same in both byte orders.
        let type = bytes.loadUInt32(at: start, bigEndian: bigEndian)
        var order = bigEndian
        if type == Self.sectionHeaderType {
            guard remaining >= 12 else {
                throw .truncated(field: "Byte-Order Magic", offset: start + 8, needed: 4, available: remaining - 8)
            }
            switch bytes.loadUInt32(at: start + 8, bigEndian: true) {
            case Self.byteOrderMagic: order = true
            case Self.byteOrderMagic.byteSwapped: order = false
            case let other:
                throw .invalidValue(field: "Byte-Order Magic", offset: start + 8,
                                    reason: "0x\(hex32(other)) is neither 1a2b3c4d nor 4d3c2b1a")
            }
        }
        let name = Self.name(of: type)
        let total = bytes.loadUInt32(at: start + 4, bigEndian: order)
        guard total >= 12, total % 4 == 0, total <= Self.maximumBlockLength else {
            let reason = total < 12 ? "shorter than the 12-octet minimum block"
                : total % 4 != 0 ? "not a multiple of 4" : "more than the \(Self.maximumBlockLength)-octet maximum block"
            throw .invalidLength(field: "\(name) Block Total Length", offset: start + 4, length: UInt64(total), reason: reason)
        }
        let length = Int(total)
        guard remaining >= length else {
            throw .truncated(field: name, offset: start, needed: length, available: remaining)
        }
        let trailer = bytes.loadUInt32(at: start + length - 4, bigEndian: order)
        guard trailer == total else {
            throw .invalidValue(field: "\(name) trailing Block Total Length", offset: start + length - 4,
                                reason: "\(trailer) differs from the leading \(total)")
        }
        let body = (start + 8)..<(start + length - 4)
        offset = start + length

        func requireBody(_ minimum: Int) throws(CaptureError) {
            guard body.count >= minimum else {
                throw .invalidLength(field: "\(name) Block Total Length", offset: start + 4, length: UInt64(total),
                                     reason: "a \(name) needs at least \(minimum + 12) octets")
            }
        }

        switch type {
        case Self.sectionHeaderType:
            try requireBody(16)
            let major = bytes.loadUInt16(at: body.lowerBound + 4, bigEndian: order)
            let minor = bytes.loadUInt16(at: body.lowerBound + 6, bigEndian: order)
            guard major == 1 else {
                throw .unsupportedVersion(format: .pcapng, offset: body.lowerBound + 4, version: "\(major).\(minor)")
            }
            bigEndian = order
            interfaces = []
            return .section

        case 1: // Interface Description Block
            try requireBody(8)
            var interface = Interface(linkType: LinkType(rawValue: UInt32(bytes.loadUInt16(at: body.lowerBound, bigEndian: order))),
                                      snapLength: bytes.loadUInt32(at: body.lowerBound + 4, bigEndian: order))
            try forEachOption(bytes, in: (body.lowerBound + 8)..<body.upperBound, blockName: name) { code, value in
                if code == 9, let v = bytes[value].first {            // if_tsresol
                    let exponent = Int(v & 0x7F)
                    if v & 0x80 != 0, exponent <= 63 {
                        interface.ticksPerSecond = 1 << UInt64(exponent)
                    } else if v & 0x80 == 0, exponent <= 19 {
                        var tps: UInt64 = 1
                        for _ in 0..<exponent { tps *= 10 }
                        interface.ticksPerSecond = tps
                    } else {
                        interface.resolutionError = .invalidValue(field: "if_tsresol", offset: value.lowerBound,
                                                        reason: "0x\(Hex.encode([v])) is finer than 64-bit timestamps can count")
                    }
                } else if code == 14, value.count == 8 {               // if_tsoffset
                    interface.offsetSeconds = Int64(bitPattern: bytes.loadUInt64(at: value.lowerBound, bigEndian: order))
                }
            }
            interfaces.append(interface)
            return .interface(interface)

        case 6, 2: // Enhanced Packet Block; (obsolete) Packet Block
            try requireBody(20)
            let b = body.lowerBound
            let interfaceID = type == 6 ? bytes.loadUInt32(at: b, bigEndian: order)
                                        : UInt32(bytes.loadUInt16(at: b, bigEndian: order))
            guard Int(interfaceID) < interfaces.count else {
                throw .invalidValue(field: "Interface ID", offset: b,
                                    reason: "interface \(interfaceID) is not described (\(interfaces.count) in this section)")
            }
            let ticks = UInt64(bytes.loadUInt32(at: b + 4, bigEndian: order)) << 32
                | UInt64(bytes.loadUInt32(at: b + 8, bigEndian: order))
            let captured = bytes.loadUInt32(at: b + 12, bigEndian: order)
            let original = bytes.loadUInt32(at: b + 16, bigEndian: order)
            let dataStart = b + 20
            guard Int(captured) <= body.upperBound - dataStart else {
                throw .invalidLength(field: "Captured Packet Length", offset: b + 12, length: UInt64(captured),
                                     reason: "runs past the end of its block (\(body.upperBound - dataStart) octets left)")
            }
            let dataEnd = dataStart + Int(captured)
            let optionsStart = min(dataStart + (Int(captured) + 3) & ~3, body.upperBound)
            var flags: UInt32 = 0
            try forEachOption(bytes, in: optionsStart..<body.upperBound, blockName: name) { code, value in
                if code == 2, value.count == 4 { flags = bytes.loadUInt32(at: value.lowerBound, bigEndian: order) }
            }
            let interface = interfaces[Int(interfaceID)]
            // A timestamp that cannot be represented spoils only itself: the packet is kept with
            // the error and timestamp 0, and reading goes on.
            var (timestamp, sub): (Int64, UInt16) = (0, 0)
            var timestampError = interface.resolutionError
            if timestampError == nil {
                if let t = Self.timestamp(ticks, interface) {
                    (timestamp, sub) = t
                } else {
                    timestampError = .invalidValue(field: "Timestamp", offset: b + 4,
                                                   reason: "\(ticks) ticks at \(interface.ticksPerSecond) per second, offset \(interface.offsetSeconds) s, do not fit 64-bit microseconds")
                }
            }
            var decoded = LinkTypeDecoding.decode(bytes[dataStart..<dataEnd], linkType: interface.linkType)
            if decoded.direction == .unknown, case .hci = decoded.packet {
                switch flags & 0b11 {
                case 0b01: decoded.direction = .controllerToHost
                case 0b10: decoded.direction = .hostToController
                default: break
                }
            }
            return .packet(CaptureRecord(index: index, timestamp: timestamp, subMicrosecondNanoseconds: sub,
                                         direction: decoded.direction, controllerIndex: decoded.controllerIndex,
                                         interfaceID: interfaceID, packet: decoded.packet,
                                         originalLength: Int(original), capturedLength: Int(captured),
                                         timestampError: timestampError))

        case 3: // Simple Packet Block
            try requireBody(4)
            guard let interface = interfaces.first else {
                throw .invalidValue(field: name, offset: start, reason: "no Interface Description Block precedes it")
            }
            let original = bytes.loadUInt32(at: body.lowerBound, bigEndian: order)
            var captured = min(Int(original), body.count - 4)
            if interface.snapLength != 0 { captured = min(captured, Int(interface.snapLength)) }
            let dataStart = body.lowerBound + 4
            let decoded = LinkTypeDecoding.decode(bytes[dataStart..<(dataStart + captured)], linkType: interface.linkType)
            return .packet(CaptureRecord(index: index, timestamp: 0, direction: decoded.direction,
                                         controllerIndex: decoded.controllerIndex, interfaceID: 0,
                                         packet: decoded.packet, originalLength: Int(original), capturedLength: captured))

        default:
            return .other
        }
    }

    /// Calls `body` with each option's code and value range in `range`, up to opt_endofopt.
    /// Options are read in the current section's byte order (a Section Header Block's own
    /// options are never read).
    private func forEachOption(_ bytes: [UInt8], in range: Range<Int>, blockName: String,
                               _ body: (UInt16, Range<Int>) -> Void) throws(CaptureError) {
        var p = range.lowerBound
        while range.upperBound - p >= 4 {
            let code = bytes.loadUInt16(at: p, bigEndian: bigEndian)
            let length = Int(bytes.loadUInt16(at: p + 2, bigEndian: bigEndian))
            if code == 0 { return }
            guard length <= range.upperBound - p - 4 else {
                throw .invalidLength(field: "\(blockName) Option Length", offset: p + 2, length: UInt64(length),
                                     reason: "runs past the end of its block")
            }
            body(code, (p + 4)..<(p + 4 + length))
            p += 4 + (length + 3) & ~3
        }
    }

    /// Microseconds since the Unix epoch and the nanoseconds beyond, for `ticks` of an interface.
    static func timestamp(_ ticks: UInt64, _ interface: Interface) -> (Int64, UInt16)? {
        let tps = interface.ticksPerSecond
        let (seconds, remainder) = ticks.quotientAndRemainder(dividingBy: tps)
        // remainder < tps, so remainder * 10^9 / tps < 10^9: the division cannot overflow.
        let nanoseconds = tps.dividingFullWidth(remainder.multipliedFullWidth(by: 1_000_000_000)).quotient
        guard seconds <= UInt64(Int64.max) else { return nil }
        let (s, o1) = Int64(seconds).addingReportingOverflow(interface.offsetSeconds)
        let (us, o2) = s.multipliedReportingOverflow(by: 1_000_000)
        let (t, o3) = us.addingReportingOverflow(Int64(nanoseconds / 1000))
        if o1 || o2 || o3 { return nil }
        return (t, UInt16(nanoseconds % 1000))
    }

    static func name(of type: UInt32) -> String {
        switch type {
        case sectionHeaderType: return "Section Header Block"
        case 1: return "Interface Description Block"
        case 2: return "Packet Block"
        case 3: return "Simple Packet Block"
        case 4: return "Name Resolution Block"
        case 5: return "Interface Statistics Block"
        case 6: return "Enhanced Packet Block"
        default: return "block type 0x\(hex32(type))"
        }
    }
}
