import Foundation
import Testing
import BLECore
import HCI
@testable import Capture

/// The project's own demo capture, recorded with Bumble (see Fixtures/captures/README.md).
enum DemoCapture {
    static let path: String = {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        return root.appendingPathComponent("Fixtures/captures/bumble-heart-rate.btsnoop").path
    }()

    /// Every record of the demo capture, dissected in order, and the dissector afterwards.
    static func dissected() throws -> ([DissectedPacket], Dissector) {
        try dissect(path)
    }
}

/// Dissects every record of the capture at `path`.
func dissect(_ path: String) throws -> ([DissectedPacket], Dissector) {
    let file = try CaptureFile(contentsOf: path)
    let result = file.readAll()
    #expect(result.error == nil)
    var dissector = Dissector()
    let packets = result.records.map { dissector.dissect($0) }
    return (packets, dissector)
}

/// A synthetic HCI record, for dissector tests that need exact bytes.
func hciRecord(_ index: Int, _ type: HCIPacketType, _ payload: [UInt8],
               direction: CaptureDirection = .controllerToHost) -> CaptureRecord {
    CaptureRecord(index: index, timestamp: 1_700_000_000_000_000 + Int64(index) * 1000, direction: direction,
                  packet: .hci(type: type, payload: payload), originalLength: payload.count + 1, capturedLength: payload.count + 1)
}

/// An ACL record carrying one complete L2CAP basic frame on `cid`.
func aclRecord(_ index: Int, handle: UInt16 = 0x0040, cid: UInt16 = 0x0004, _ pdu: [UInt8],
               direction: CaptureDirection = .controllerToHost) -> CaptureRecord {
    var data = ByteWriter()
    data.writeUInt16(UInt16(pdu.count))
    data.writeUInt16(cid)
    data.writeBytes(pdu)
    let acl = HCIACLDataPacket(handle: handle, packetBoundary: .firstFlushable, data: data.bytes)
    return hciRecord(index, .acl, acl.encoded, direction: direction)
}
