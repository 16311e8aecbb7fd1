import Foundation
import Testing
@testable import Capture

/// `CaptureFormat.decodedLinkTypes` is what the readers decode, and docs/decode.md's table of
/// inputs says the same, so blectl's message for a file it cannot decode names the right list.
@Suite("decoded link types")
struct DecodedLinkTypesTests {
    /// Every link type the package names, and two it does not (Ethernet, 999).
    static let candidates: [UInt32] = [1, 147, 187, 192, 201, 251, 254, 256, 999, 1001, 1002, 1003, 1004, 2001]

    /// A record that the link type's decoder, if there is one, takes for its own: an HCI Reset
    /// command in the link type's framing, an LE link-layer SCAN_REQ, or an ADV_IND in PPI.
    static func sample(_ linkType: UInt32) throws -> [UInt8] {
        let reset: [UInt8] = [0x03, 0x0C, 0x00]
        let scanRequest = try octets("d6 be 89 8e c3 0c 0c b2 f0 de f5 14 16 23 42 82 43 7d 0a d5 5a")
        switch linkType {
        case 187, 1002: return [0x01] + reset                        // H4 packet indicator 0x01, a command
        case 201: return [0, 0, 0, 0, 0x01] + reset                  // direction 0 (sent), then H4
        case 254: return [0x00, 0x00, 0x00, 0x02] + reset            // hci0, opcode 2 (Command)
        case 251: return scanRequest
        case 256: return [UInt8](repeating: 0, count: 10) + scanRequest   // the 10-octet pseudo-header
        case 192: return try octets(LinkLayerAdvertisingTests.advIndPPI)
        default: return reset                                        // 1001: flags say command; 2001: opcode 2
        }
    }

    /// A btsnoop file with `datalink` and one record of `payload`, sent by the host, flagged as a
    /// command (1001, 1002) or with Linux monitor opcode 2, Command (2001), at timestamp 0.
    static func btsnoop(datalink: UInt32, _ payload: [UInt8]) -> [UInt8] {
        func be32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (24 - 8 * $0)) } }
        // 1001 and 1002: bit 0 clear (sent), bit 1 set (a command); 2001: index 0, opcode 2 (Command).
        let flags: UInt32 = 2
        let epoch = UInt64(BTSnoopParser.unixEpochOffset)
        let timestamp = (0..<8).map { UInt8(truncatingIfNeeded: epoch >> (56 - 8 * $0)) }
        return Array("btsnoop".utf8) + [0] + be32(1) + be32(datalink)
            + be32(UInt32(payload.count)) + be32(UInt32(payload.count)) + be32(flags) + be32(0) + timestamp + payload
    }

    /// A little-endian microsecond pcap file with `linkType` and one record of `payload`.
    static func pcap(linkType: UInt32, _ payload: [UInt8]) -> [UInt8] {
        func le32(_ value: UInt32) -> [UInt8] { (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) } }
        return [0xD4, 0xC3, 0xB2, 0xA1, 0x02, 0x00, 0x04, 0x00] + [UInt8](repeating: 0, count: 8) + le32(65_535) + le32(linkType)
            + le32(0) + le32(0) + le32(UInt32(payload.count)) + le32(UInt32(payload.count)) + payload
    }

    @Test("each format lists exactly the link types whose records its reader decodes")
    func listMatchesTheReaders() throws {
        for format in [CaptureFormat.btsnoop, .pcap] {
            for raw in Self.candidates {
                let payload = try Self.sample(raw)
                let bytes = format == .btsnoop ? Self.btsnoop(datalink: raw, payload) : Self.pcap(linkType: raw, payload)
                let record = try #require(try CaptureFile(bytes: bytes).readAll().records.first, "\(format) \(raw)")
                var decoded = true
                if case .unsupported = record.packet { decoded = false }
                let listed = format.decodedLinkTypes.contains(LinkType(rawValue: raw))
                #expect(decoded == listed,
                        "\(format) \(format.linkTypeName) \(raw): the reader \(decoded ? "decodes" : "does not decode") its records (\(record.packet)), but decodedLinkTypes \(listed ? "lists" : "does not list") it")
            }
        }
        // pcapng records go through the pcap decoder under their interface's link type.
        #expect(CaptureFormat.pcapng.decodedLinkTypes == CaptureFormat.pcap.decodedLinkTypes)
    }

    @Test("docs/decode.md's table of inputs lists each format's decoded link types")
    func decodeDocumentationListsThem() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let lines = try String(contentsOf: root.appendingPathComponent("docs/decode.md"), encoding: .utf8)
            .split(separator: "\n", omittingEmptySubsequences: false)
        let rows: [(format: CaptureFormat, prefix: String)] = [(.btsnoop, "| btsnoop"), (.pcap, "| pcap ("), (.pcapng, "| pcapng")]
        for (format, prefix) in rows {
            let index = try #require(lines.firstIndex { $0.hasPrefix(prefix) }, "docs/decode.md has no row starting '\(prefix)' in its table of inputs")
            let cells = lines[index].split(separator: "|", omittingEmptySubsequences: false).map { $0.trimmingCharacters(in: .whitespaces) }
            try #require(cells.count >= 3, "docs/decode.md line \(index + 1) is not a table row: \(lines[index])")
            let cell = cells[2]
            let expected = format.decodedLinkTypes.map(\.rawValue)
            if format == .pcapng {
                #expect(cell.hasPrefix("the same link types"),
                        "docs/decode.md line \(index + 1): pcapng decodes the same link types as pcap (\(expected)); the row says: \(cell)")
                continue
            }
            // The numbers outside parentheses: "192 (PPI around 251, ...)" lists 192.
            var outside = ""
            var depth = 0
            for character in cell {
                if character == "(" { depth += 1 } else if character == ")" { depth -= 1 } else if depth == 0 { outside.append(character) }
            }
            let listed = outside.split { !$0.isNumber }.compactMap { UInt32($0) }
            #expect(Set(listed) == Set(expected) && listed.count == expected.count,
                    "docs/decode.md line \(index + 1) lists \(format) link types \(listed); the reader decodes \(expected)")
        }
    }
}
