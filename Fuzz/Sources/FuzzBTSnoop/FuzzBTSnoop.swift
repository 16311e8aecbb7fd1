import BLECore
import Capture
import CaptureProperties
import FuzzSupport

/// The btsnoop reader on a file whose identification is "btsnoop\0" and whose version,
/// datalink and records are the input: the shared reader properties (``CaptureReadProperties``),
/// and for datalinks 1002 (H4) and 2001 (Linux monitor), which ``BTSnoopWriter`` writes, a
/// round trip: the records written back read again as the same packets, timestamps and lengths
/// (Original Length at least Included Length, as the writer computes it).
enum BTSnoopHarness {
    static let identification: [UInt8] = Array("btsnoop".utf8) + [0]

    static func test(_ input: [UInt8]) {
        let bytes = identification + input
        guard let (file, result) = CaptureReadProperties.check(bytes, format: .btsnoop, minimumRecordLength: 24),
              let datalink = file.linkType, datalink == .btsnoopH4 || datalink == .btsnoopMonitor else { return }
        guard let written = try? BTSnoopWriter.encode(result.records, datalink: datalink) else { return }
        guard let reread = try? CaptureFile(bytes: written) else { FuzzProperty.fail("the written file does not open") }
        let again = reread.readAll()
        FuzzProperty.require(again.error == nil, "the written file does not read to its end: \(String(describing: again.error))")
        FuzzProperty.require(again.records.count == result.records.count, "\(result.records.count) records written, \(again.records.count) read")
        for (before, after) in zip(result.records, again.records) {
            FuzzProperty.require(before.packet == after.packet, "record \(before.index): \(before.packet) written, \(after.packet) read")
            // The writer computes Original Length as the written length plus the octets the record
            // lost to truncation, so a file's Original Length below its Included Length comes back raised.
            FuzzProperty.require(before.capturedLength == after.capturedLength
                                 && max(before.originalLength, before.capturedLength) == after.originalLength,
                                 "record \(before.index): lengths \(before.capturedLength)/\(before.originalLength) written, \(after.capturedLength)/\(after.originalLength) read")
            if before.timestampError == nil {
                FuzzProperty.require(before.timestamp == after.timestamp, "record \(before.index): timestamp \(before.timestamp) written, \(after.timestamp) read")
            }
        }
    }
}

@_cdecl("FuzzBTSnoop_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        BTSnoopHarness.test(FuzzInput.octets(data, size))
        return 0
    }
}
