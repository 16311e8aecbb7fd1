import BLECore
import Capture
import CaptureProperties
import FuzzSupport

/// The pcap reader on a file with one of pcap's four magic numbers (chosen by the input's first
/// octet: microsecond or nanosecond timestamps, little- or big-endian) followed by the rest of
/// the input (the header's other fields, then records): the shared reader properties
/// (``CaptureReadProperties``) under every link type the input names.
enum PcapHarness {
    static let magics: [[UInt8]] = [[0xD4, 0xC3, 0xB2, 0xA1], [0xA1, 0xB2, 0xC3, 0xD4], [0x4D, 0x3C, 0xB2, 0xA1], [0xA1, 0xB2, 0x3C, 0x4D]]

    static func test(_ input: [UInt8]) {
        guard let choice = input.first else { return }
        let bytes = magics[Int(choice) % magics.count] + input.dropFirst()
        _ = CaptureReadProperties.check(bytes, format: .pcap, minimumRecordLength: 16)
    }
}

@_cdecl("FuzzPcap_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        PcapHarness.test(FuzzInput.octets(data, size))
        return 0
    }
}
