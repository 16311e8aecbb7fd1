import BLECore
import Capture
import CaptureProperties
import FuzzSupport

/// Apple PacketLogger files (.pklg, either byte order): the input is the file, kept when it
/// starts with a record the format recognises (the seeds do; their mutations mostly still do).
/// Beside the shared reader properties (``CaptureReadProperties``):
///
/// - every HCI record has the direction its Packet Type gives, and every record dissects to a
///   line and a summary;
/// - a file read whole, with no error and no damaged timestamp, is written back octet for octet
///   by ``PacketLoggerWriter`` in one of the two byte orders (the reader loses nothing).
enum PacketLoggerHarness {
    /// The shortest record: the 13-octet header with no payload.
    static let minimumRecordLength = 13

    static func test(_ input: [UInt8]) {
        guard let recognised = try? CaptureFile(bytes: input), recognised.format == .packetLogger,
              let (_, result) = CaptureReadProperties.check(input, format: .packetLogger, minimumRecordLength: minimumRecordLength)
        else { return }
        var dissector = Dissector()
        for record in result.records {
            if case .hci = record.packet {
                FuzzProperty.require(record.direction != .unknown, "record \(record.index): an HCI record without a direction")
            }
            let packet = dissector.dissect(record)
            FuzzProperty.require(!packet.line.isEmpty && !packet.summary.isEmpty, "record \(record.index) has an empty line")
        }
        guard result.error == nil, result.records.allSatisfy({ $0.timestampError == nil }) else { return }
        let rewritten = [true, false].map { try? PacketLoggerWriter.encode(result.records, bigEndian: $0) }
        FuzzProperty.require(rewritten.contains(input), "\(result.records.count) records read whole are not written back as they were")
    }
}

@_cdecl("FuzzPacketLogger_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        PacketLoggerHarness.test(FuzzInput.octets(data, size))
        return 0
    }
}
