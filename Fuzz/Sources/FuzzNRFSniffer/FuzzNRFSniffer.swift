import BLECore
import Capture
import CaptureProperties
import FuzzSupport

/// The nRF Sniffer's captures (pcap, LINKTYPE_NORDIC_BLE 272): a little-endian microsecond pcap
/// header naming link type 272, then the input as its records. Beside the shared reader
/// properties (``CaptureReadProperties``), every record goes through the dissector, which must
/// keep what the nRF Sniffer header says:
///
/// - a packet whose header says its CRC is bad is shown as such (`.badCRC`), never decoded as
///   L2CAP, so never as ATT;
/// - a decrypted packet whose MIC did not match is never decoded as L2CAP;
/// - the direction the header gives is the packet's, not inferred;
/// - every packet has a line and a summary.
enum NRFSnifferHarness {
    /// The pcap file header: magic (little-endian, microseconds), version 2.4, zone and sigfigs
    /// 0, snaplen 65,535, LINKTYPE_NORDIC_BLE.
    static let header: [UInt8] = [0xD4, 0xC3, 0xB2, 0xA1, 0x02, 0x00, 0x04, 0x00,
                                  0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00,
                                  0xFF, 0xFF, 0x00, 0x00, 0x10, 0x01, 0x00, 0x00]

    static func test(_ input: [UInt8]) {
        guard let (_, result) = CaptureReadProperties.check(header + input, format: .pcap, minimumRecordLength: 16) else { return }
        var dissector = Dissector()
        for record in result.records {
            let packet = dissector.dissect(record)
            FuzzProperty.require(!packet.line.isEmpty && !packet.summary.isEmpty, "record \(record.index) has an empty line")
            guard case .linkLayer(let linkLayer) = record.packet, linkLayer.nordic != nil else { continue }
            let verdict = linkLayer.sniffer
            if case .linkLayer(_, let stage) = packet.content {
                if verdict.isCRCValid == false {
                    guard case .badCRC = stage else {
                        FuzzProperty.fail("record \(record.index): the header says the CRC is bad, dissected as \(stage)")
                    }
                }
                if verdict.isDecrypted, verdict.isMICValid == false, case .l2cap = stage {
                    FuzzProperty.fail("record \(record.index): a bad MIC decoded as L2CAP")
                }
            }
            FuzzProperty.require(verdict.isCRCValid != false || packet.attPDU == nil, "record \(record.index): a bad CRC decoded as ATT")
            if verdict.direction != .unknown {
                FuzzProperty.require(packet.direction == verdict.direction && !packet.isDirectionInferred,
                                     "record \(record.index): the header says \(verdict.direction), dissected as \(packet.direction)")
            }
        }
    }
}

@_cdecl("FuzzNRFSniffer_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        NRFSnifferHarness.test(FuzzInput.octets(data, size))
        return 0
    }
}
