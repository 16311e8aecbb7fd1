import Foundation
import Testing
import BLECore
@testable import SMP

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

/// The B-frames on CID 0x0006 of a btsnoop file with H4 datalink, with their ACL handle. This
/// test target depends on SMP alone, so it walks the file and joins ACL fragments itself, in
/// the simplest way that works for these captures (the L2CAP target's reassembler is tested
/// against the same files, with every fault checked).
func smpFrames(inBTSnoop url: URL) throws -> [(handle: UInt16, payload: [UInt8])] {
    let bytes = [UInt8](try Data(contentsOf: url))
    var r = ByteReader(bytes)
    try r.skip(16, "file header")
    var pending: [String: [UInt8]] = [:]   // "direction handle" -> octets so far
    var frames: [(UInt16, [UInt8])] = []
    while !r.isAtEnd {
        try r.skip(4, "original length")
        let included = Int(try r.readBigEndian(4, "included length"))
        let direction = try r.readBigEndian(4, "flags") & 1
        try r.skip(12, "drops and timestamp")
        var packet = ByteReader(try r.readSlice(included, "packet"))
        guard try packet.readUInt8("H4 type") == 0x02 else { continue }
        let header = try packet.readUInt16("handle and flags")
        _ = try packet.readUInt16("length")
        let handle = header & 0x0FFF
        let key = "\(direction) \(handle)"
        var buffer = header >> 12 & 0b11 == 0b01 ? pending[key, default: []] : []
        buffer += packet.readRemaining()
        guard buffer.count >= 4, buffer.count >= 4 + (Int(buffer[0]) | Int(buffer[1]) << 8) else {
            pending[key] = buffer
            continue
        }
        pending[key] = nil
        if buffer[2] == 0x06, buffer[3] == 0x00 { frames.append((handle, Array(buffer[4...]))) }
    }
    return frames
}

@Suite("SMP in real captures, cross-checked with tshark",
       .enabled(if: SharedCaptures.available, "../shared/captures is absent: real-capture tests skipped"))
struct SMPCaptureTests {
    /// Decodes every SMP PDU on real connection handles and counts them by code; returns the
    /// errors of the frames on handle 0x0EDC (Android vendor data, not SMP at all).
    func decodeAll(_ name: String) throws -> (counts: [UInt8: Int], vendorErrors: [SMPDecodingError]) {
        let url = try #require(SharedCaptures.url(name))
        var counts: [UInt8: Int] = [:]
        var vendorErrors: [SMPDecodingError] = []
        for (handle, payload) in try smpFrames(inBTSnoop: url) {
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
        let (counts, vendorErrors) = try decodeAll(SharedCaptures.btsnoop)
        // tshark -r FILE -Y btsmp -T fields -e btsmp.opcode | sort | uniq -c
        #expect(counts == [0x01: 1, 0x02: 1, 0x03: 40, 0x04: 40, 0x08: 2, 0x09: 2, 0x0A: 2, 0x0C: 2, 0x0D: 2])
        #expect(vendorErrors.isEmpty)
    }

    @Test("Android .cfa: the same pairing, and vendor frames that only look like Signing Information")
    func cfa() throws {
        let (counts, vendorErrors) = try decodeAll(SharedCaptures.cfa)
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
