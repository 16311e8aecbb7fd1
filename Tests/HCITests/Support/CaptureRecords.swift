import Testing
import BLETestSupport
import Capture

/// The H4 packets of a shared btsnoop capture (H4 datalink 1002), packet indicator first, in
/// file order, read by Capture's reader. An empty record (no packet indicator) stays in place as
/// no octets, so record numbers count every record of the file.
func h4Packets(inSharedCapture name: String) throws -> [[UInt8]] {
    let file = try CaptureFile(contentsOf: SharedCaptures.path(name))
    #expect(file.format == .btsnoop)
    #expect(file.linkType == .btsnoopH4)
    let read = file.readAll()
    #expect(read.error == nil, "\(name) did not read to its end")
    var packets: [[UInt8]] = []
    packets.reserveCapacity(read.records.count)
    for record in read.records {
        switch record.packet {
        case let .hci(type, payload):
            packets.append([type.rawValue] + payload)
        case let .malformed(_, payload, _) where payload.isEmpty:
            packets.append([])
        default:
            Issue.record("\(name) record \(record.index + 1) is not an H4 packet: \(record.packet)")
        }
    }
    return packets
}
