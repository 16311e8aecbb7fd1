import Testing
import BLECore
import BLETestSupport
import Capture
import HCI
@testable import L2CAP

/// The ACL Data packets of a btsnoop capture with H4 datalink (1002), with their direction,
/// read by Capture's reader.
func aclPackets(inCapture path: String) throws -> [(received: Bool, packet: HCIACLDataPacket)] {
    let file = try CaptureFile(contentsOf: path)
    #expect(file.format == .btsnoop)
    #expect(file.linkType == .btsnoopH4)
    let read = file.readAll()
    #expect(read.error == nil, "the capture did not read to its end")
    var packets: [(Bool, HCIACLDataPacket)] = []
    for record in read.records {
        guard case let .hci(type, payload) = record.packet, type == .acl else { continue }
        packets.append((record.direction == .controllerToHost, try HCIACLDataPacket(decoding: payload)))
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

func reassembleCapture(_ path: String) throws -> (CaptureCounts, [ACLReassembledPDU]) {
    var sent = ACLReassembler()
    var received = ACLReassembler()
    var counts = CaptureCounts()
    var receivedSignaling: [ACLReassembledPDU] = []
    for (isReceived, packet) in try aclPackets(inCapture: path) {
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
       .enabled(if: SharedCaptures.available, Comment(rawValue: SharedCaptures.skipNote)))
struct CaptureReassemblyTests {
    @Test("Android snoop .cfa: every L2CAP PDU tshark finds, per direction and channel, and no faults")
    func cfa() throws {
        let (counts, signaling) = try reassembleCapture(SharedCaptures.path(SharedCaptures.nexxtenderCFA))
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
        let (counts, _) = try reassembleCapture(SharedCaptures.path(SharedCaptures.nexxtenderBTSnoop))
        // Same tshark count: 274 L2CAP PDUs from 276 ACL packets, all on handle 0x0040.
        #expect(counts.pdus == [
            "sent ATT (0x0004)": 70, "sent SMP (0x0006)": 46,
            "received ATT (0x0004)": 112, "received SMP (0x0006)": 46,
        ])
        #expect(counts.androidVendorPDUs == 0)
        #expect(counts.diagnostics.isEmpty)
    }
}
