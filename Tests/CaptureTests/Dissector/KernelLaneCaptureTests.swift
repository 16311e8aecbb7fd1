import Foundation
import Testing
import BLECore
@testable import Capture

/// The kernel lane's capture of check 2 (Fixtures/captures/kernel-lane-gatt.btsnoop): LinuxBLE's
/// client and server on real kernel sockets, seen from both controllers in the monitor format.
@Suite("Kernel lane capture")
struct KernelLaneCaptureTests {
    static let path = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/captures/kernel-lane-gatt.btsnoop").path

    @Test("decodes without a malformed packet; long reads in Read Blobs, a long write in Prepare and Execute Write")
    func attTraffic() throws {
        let (packets, dissector) = try dissect(Self.path)
        let report = dissector.report
        #expect(report.malformedCount == 0)
        let lines = packets.map(\.line)
        #expect(lines.contains { $0.contains("ATT Exchange MTU Request Client Rx MTU 23") })
        #expect(lines.filter { $0.contains("ATT Read Blob Request") }.count >= 2 * 22)       // 512 octets at ATT_MTU 23, both sides
        #expect(lines.contains { $0.contains("ATT Prepare Write Request") })
        #expect(lines.contains { $0.contains("ATT Execute Write Request") })
        #expect(!lines.contains { $0.contains("ATT Error Response") && $0.contains("Unlikely Error") })
    }

    @Test("the GATT table reconstructed from the traffic: the lane's services and the GAP and GATT services serve adds")
    func gattTable() throws {
        let (_, dissector) = try dissect(Self.path)
        let text = dissector.report.renderedLines.joined(separator: "\n")
        for expected in ["Primary Service 180F (Battery)", "Primary Service A5F10001-6C1B-4B8E-9E3A-4C696E757842",
                         "Characteristic A5F10004-6C1B-4B8E-9E3A-4C696E757842 [read, write, notify]",
                         "Characteristic A5F10005-6C1B-4B8E-9E3A-4C696E757842 [read, write, indicate]",
                         "Primary Service 1801 (GATT)", "Characteristic 2B2A (Database Hash) [read]"] {
            #expect(text.contains(expected), "\(expected)")
        }
    }
}
