import Testing
import BLECore
import BLETestSupport
import Capture
import HCI
import L2CAP
@testable import SMP

/// The B-frames on CID 0x0006 of a btsnoop capture with H4 datalink, with their ACL handle:
/// Capture's reader gives the ACL packets and their direction, and L2CAP's reassembler (one per
/// direction) joins their fragments. Reassembly faults are checked by L2CAPTests against the
/// same files; here none may occur either.
func smpFrames(inCapture path: String) throws -> [(handle: UInt16, payload: [UInt8])] {
    let file = try CaptureFile(contentsOf: path)
    #expect(file.format == .btsnoop)
    #expect(file.linkType == .btsnoopH4)
    let read = file.readAll()
    #expect(read.error == nil, "the capture did not read to its end")
    var sent = ACLReassembler()
    var received = ACLReassembler()
    var frames: [(UInt16, [UInt8])] = []
    for record in read.records {
        guard case let .hci(type, payload) = record.packet, type == .acl else { continue }
        let packet = try HCIACLDataPacket(decoding: payload)
        let outcome = record.direction == .controllerToHost ? received.push(packet) : sent.push(packet)
        #expect(outcome.diagnostics.isEmpty, "record \(record.index): \(outcome.diagnostics)")
        if let pdu = outcome.pdu, pdu.frame.channelID == .smp { frames.append((pdu.handle, pdu.frame.payload)) }
    }
    return frames
}

@Suite("SMP in real captures, cross-checked with tshark",
       .enabled(if: SharedCaptures.available, Comment(rawValue: SharedCaptures.skipNote)))
struct SMPCaptureTests {
    /// Decodes every SMP PDU on real connection handles and counts them by code; returns the
    /// errors of the frames on handle 0x0EDC (Android vendor data, not SMP at all).
    func decodeAll(_ name: String) throws -> (counts: [UInt8: Int], vendorErrors: [SMPDecodingError]) {
        var counts: [UInt8: Int] = [:]
        var vendorErrors: [SMPDecodingError] = []
        for (handle, payload) in try smpFrames(inCapture: SharedCaptures.path(name)) {
            do {
                let pdu = try SMPPDU(decoding: payload)
                #expect(handle != 0x0EDC, "vendor data decoded as \(pdu)")
                #expect(pdu.encoded == payload)
                counts[pdu.code.rawValue, default: 0] += 1
            } catch {
                #expect(handle == 0x0EDC, "a real SMP PDU failed: \(error)")
                vendorErrors.append(error)
            }
        }
        return (counts, vendorErrors)
    }

    @Test("LE Secure Connections pairing with Passkey Entry: 92 PDUs, all decode and re-encode")
    func btsnoop() throws {
        let (counts, vendorErrors) = try decodeAll(SharedCaptures.nexxtenderBTSnoop)
        // tshark -r FILE -Y btsmp -T fields -e btsmp.opcode | sort | uniq -c
        #expect(counts == [0x01: 1, 0x02: 1, 0x03: 40, 0x04: 40, 0x08: 2, 0x09: 2, 0x0A: 2, 0x0C: 2, 0x0D: 2])
        #expect(vendorErrors.isEmpty)
    }

    @Test("Android .cfa: the same pairing, and vendor frames that only look like Signing Information")
    func cfa() throws {
        let (counts, vendorErrors) = try decodeAll(SharedCaptures.nexxtenderCFA)
        // tshark counts 5 Signing Information: 2 real, and 3 on handle 0x0EDC (frames 302, 2008,
        // 8730) whose "CID" is Android's running counter passing 0x0006. They are hundreds of
        // octets long, so the strict decoder rejects them after the 17 octets of the command.
        #expect(counts == [0x01: 1, 0x02: 1, 0x03: 40, 0x04: 40, 0x08: 2, 0x09: 2, 0x0A: 2, 0x0C: 2, 0x0D: 2])
        #expect(vendorErrors.count == 3)
        for error in vendorErrors {
            #expect(error.code == .signingInformation)
            guard case .unexpectedTrailingOctets(let offset, let count) = error.underlying else {
                Issue.record("expected trailing octets, got \(error)")
                continue
            }
            #expect(offset == 17)
            #expect(count > 400)
        }
    }
}
