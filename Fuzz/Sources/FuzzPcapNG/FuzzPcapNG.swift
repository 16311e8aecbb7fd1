import BLECore
import Capture
import CaptureProperties
import FuzzSupport

/// The pcapng reader on a file that starts with a Section Header Block's type (0x0A0D0D0A),
/// the input being everything after it (lengths, byte-order magic, options, then more blocks of
/// any type): the shared reader properties (``CaptureReadProperties``). The smallest block
/// that yields a record is 12 octets (type, length, trailing length).
enum PcapNGHarness {
    static let sectionHeaderType: [UInt8] = [0x0A, 0x0D, 0x0D, 0x0A]

    static func test(_ input: [UInt8]) {
        _ = CaptureReadProperties.check(sectionHeaderType + input, format: .pcapng, minimumRecordLength: 12)
    }
}

@_cdecl("FuzzPcapNG_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        PcapNGHarness.test(FuzzInput.octets(data, size))
        return 0
    }
}
