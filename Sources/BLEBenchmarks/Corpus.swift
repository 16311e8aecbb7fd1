import ATT
import BLECore
import Capture
import Foundation
import HCI

/// The inputs the benchmarks run on: taken from real captures when ../shared/captures is
/// present, else from the project's own demo capture plus seeded synthetic data of the same shapes.
struct Corpus {
    var source: String
    var advertisingPayloads: [[UInt8]] = []
    var extendedReports: [LEExtendedAdvertisingReport] = []
    var attPDUs: [[UInt8]] = []

    static let packageRoot: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().path
    }()
    static let realCapture = packageRoot + "/../shared/captures/nexxtender_charger_android_gatt_longwrite_indications_extadv.cfa"
    static let demoCapture = packageRoot + "/Fixtures/captures/bumble-heart-rate.btsnoop"

    static func load() throws -> Corpus {
        let real = FileManager.default.fileExists(atPath: realCapture)
        var corpus = Corpus(source: real ? "nexxtender .cfa capture (10,931 records)" : "demo capture + seeded synthetic data")
        for path in real ? [realCapture, demoCapture] : [demoCapture] {
            let records = try CaptureFile(contentsOf: path).readAll().records
            var dissector = Dissector()
            for record in records {
                let packet = dissector.dissect(record)
                switch packet.content {
                case .event(_, .leMeta(.extendedAdvertisingReport(let e)), _):
                    corpus.extendedReports += e.reports
                    corpus.advertisingPayloads += e.reports.map(\.data).filter { !$0.isEmpty }
                case .event(_, .leMeta(.advertisingReport(let e)), _):
                    corpus.advertisingPayloads += e.reports.map(\.data).filter { !$0.isEmpty }
                default:
                    if let pdu = packet.attPDU { corpus.attPDUs.append(pdu.encoded) }
                }
            }
        }
        if !real { corpus.addSynthetic() }
        return corpus
    }

    /// Seeded advertising payloads and extended reports shaped like the real ones, so the
    /// benchmark has volume without the shared captures.
    mutating func addSynthetic() {
        var rng = SplitMix64(seed: 0xBE7C4)
        for i in 0..<4000 {
            var ad: [UInt8] = [0x02, 0x01, 0x06]
            let name = Array("sensor-\(i % 97)".utf8)
            ad += [UInt8(name.count + 1), 0x09] + name
            ad += [0x03, 0x03, 0x0D, 0x18]
            let mfr = (0..<Int(rng.next() % 12)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            ad += [UInt8(mfr.count + 3), 0xFF, 0x4C, 0x00] + mfr
            advertisingPayloads.append(ad)
            let address = BluetoothAddress(rng.next() % 64)
            extendedReports.append(LEExtendedAdvertisingReport(
                eventType: .init(rawValue: i % 2 == 0 ? 0x13 : 0x1B), addressType: .random, address: address,
                rssi: Int8(-40 - Int(rng.next() % 50)), data: ad))
        }
    }
}
