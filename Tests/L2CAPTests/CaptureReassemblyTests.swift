import Foundation
import Testing
import BLECore
import HCI
@testable import L2CAP

/// The shared real captures (../shared/captures beside the package), absent in a user's clone.
enum SharedCaptures {
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("shared/captures")

    static func url(_ name: String) -> URL? {
        let url = directory.appendingPathComponent(name)
        return FileManager.default.fileExists(atPath: url.path) ? url : nil
    }

    static let cfa = "nexxtender_charger_android_gatt_longwrite_indications_extadv.cfa"
    static let btsnoop = "nexxtender_charger_android_discovery_insufficient_auth_pairing.btsnoop"
    static var available: Bool { url(cfa) != nil && url(btsnoop) != nil }
}

/// The ACL Data packets of a btsnoop file with H4 datalink (1002), with their direction. A
/// minimal walk for this test only (the Capture target owns the real reader): a 16-octet file
/// header, then records of original length (4), included length (4), flags (4, bit 0 set when
/// received), drops (4), timestamp (8), all big-endian, then the H4 packet.
func aclPackets(inBTSnoop url: URL) throws -> [(received: Bool, packet: HCIACLDataPacket)] {
    let bytes = [UInt8](try Data(contentsOf: url))
    var r = ByteReader(bytes)
    #expect(try r.readBytes(8, "magic") == Array("btsnoop\0".utf8))
    #expect(try r.readBigEndian(4, "version") == 1)
    #expect(try r.readBigEndian(4, "datalink") == 1002)
    var packets: [(Bool, HCIACLDataPacket)] = []
    while !r.isAtEnd {
        _ = try r.readBigEndian(4, "original length")
        let included = Int(try r.readBigEndian(4, "included length"))
        let flags = try r.readBigEndian(4, "flags")
        try r.skip(12, "drops and timestamp")
        let record = try r.readSlice(included, "packet")
        guard record.first == HCIPacketType.acl.rawValue else { continue }
        packets.append((flags & 1 == 1, try HCIACLDataPacket(decoding: record.dropFirst())))
    }
    return packets
}

/// What reassembly of a whole capture produced, counted as tshark counts L2CAP frames.
struct CaptureCounts: Equatable, CustomStringConvertible {
    /// PDUs per direction ("sent"/"received") and CID, on real connection handles.
    var pdus: [String: Int] = [:]
    /// PDUs on handle 0x0EDC, where Android's snoop log puts vendor data.
    var androidVendorPDUs = 0
    var diagnostics: [ACLReassemblyDiagnostic] = []
    var description: String { "\(pdus) vendor \(androidVendorPDUs) diagnostics \(diagnostics)" }
}

func reassembleCapture(_ url: URL) throws -> (CaptureCounts, [ACLReassembledPDU]) {
    var sent = ACLReassembler()
    var received = ACLReassembler()
    var counts = CaptureCounts()
    var receivedSignaling: [ACLReassembledPDU] = []
    for (isReceived, packet) in try aclPackets(inBTSnoop: url) {
        let outcome = isReceived ? received.push(packet) : sent.push(packet)
        counts.diagnostics += outcome.diagnostics
        guard let pdu = outcome.pdu else { continue }
        if pdu.handle == 0x0EDC {
            counts.androidVendorPDUs += 1
        } else {
            counts.pdus["\(isReceived ? "received" : "sent") \(pdu.frame.channelID)", default: 0] += 1
            if pdu.frame.channelID == .leSignaling { receivedSignaling.append(pdu) }
        }
    }
    #expect(sent.pendingHandleCount == 0 && received.pendingHandleCount == 0, "a PDU was left incomplete at the end")
    return (counts, receivedSignaling)
}

@Suite("Reassembly of real captures, cross-checked with tshark",
       .enabled(if: SharedCaptures.available, "../shared/captures is absent: real-capture tests skipped"))
struct CaptureReassemblyTests {
    @Test("Android snoop .cfa: every L2CAP PDU tshark finds, per direction and channel, and no faults")
    func cfa() throws {
        let url = try #require(SharedCaptures.url(SharedCaptures.cfa))
        let (counts, signaling) = try reassembleCapture(url)
        // tshark -r FILE -Y bthci_acl -T fields -e frame.p2p_dir -e bthci_acl.chandle -e btl2cap.cid
        // counted per direction and CID (1078 L2CAP PDUs from 1113 ACL packets, 35 continuations).
        #expect(counts.pdus == [
            "sent ATT (0x0004)": 244, "sent LE signaling (0x0005)": 1, "sent SMP (0x0006)": 46,
            "received ATT (0x0004)": 327, "received LE signaling (0x0005)": 1, "received SMP (0x0006)": 46,
        ])
        #expect(counts.androidVendorPDUs == 413)
        #expect(counts.diagnostics.isEmpty)
        // The two signaling PDUs on the real connection are the Connection Parameter Update pair.
        let commands = try signaling.map { try LESignalingPacket(decoding: $0.frame.payload).command() }
        #expect(commands.map(\.code) == [.connectionParameterUpdateRequest, .connectionParameterUpdateResponse])
    }

    @Test("btsnoop with LE Secure Connections pairing: every L2CAP PDU tshark finds, and no faults")
    func btsnoop() throws {
        let url = try #require(SharedCaptures.url(SharedCaptures.btsnoop))
        let (counts, _) = try reassembleCapture(url)
        // Same tshark count: 274 L2CAP PDUs from 276 ACL packets, all on handle 0x0040.
        #expect(counts.pdus == [
            "sent ATT (0x0004)": 70, "sent SMP (0x0006)": 46,
            "received ATT (0x0004)": 112, "received SMP (0x0006)": 46,
        ])
        #expect(counts.androidVendorPDUs == 0)
        #expect(counts.diagnostics.isEmpty)
    }
}
