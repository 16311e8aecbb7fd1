import BLECore
import Capture
import Foundation
import HCI

/// The decoder rows of `make bench` against tshark: `blectl decode FILE` and `tshark -r FILE`,
/// each a process writing to /dev/null, run in turns on the same file so that both meet the same
/// load on a shared machine; the ratio is taken from the medians of the same run.
enum DecodeBench {
    /// One file's wall times: ours and tshark's, in seconds, one pair per round.
    struct Pairs {
        var name: String
        var records: Int
        var ours: [Double] = []
        var tshark: [Double] = []
        /// Other blectl builds timed in the same turns (the dynamically linked build, a baseline
        /// from LINUXBLE_BASELINE_BLECTL), by label.
        var others: [(label: String, times: [Double])] = []

        static func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
        /// tshark's median over ours.
        var ratio: Double { Self.median(tshark) / Self.median(ours) }
    }

    /// Where the seeded extended advertising capture is written (under .build, never committed).
    static let syntheticCapture = Corpus.packageRoot + "/.build/bench/extended-advertising-10000.btsnoop"

    /// Writes a btsnoop (H4) capture of `count` LE Extended Advertising Report events, one report
    /// each, from seeded data shaped like a crowded channel: 200 advertisers (random addresses,
    /// one or two advertising sets), each payload Flags, a Complete Local Name, a 16-bit service
    /// UUID list, Service Data and Manufacturer Specific Data; every 25th advertiser sends its
    /// data as a chain of two fragments (Data Status "more data to come", then complete), with
    /// other advertisers' reports between them. Reports 1 ms apart (Vol 4, Part E, 7.7.65.13).
    static func writeExtendedAdvertisingCapture(count: Int = 10_000, to path: String) throws {
        var rng = SplitMix64(seed: 0xE47AD)
        struct Advertiser { var address: BluetoothAddress; var sid: UInt8; var data: [UInt8]; var chained: Bool }
        let advertisers: [Advertiser] = (0..<200).map { i in
            let address = BluetoothAddress(0xC0_0000_0000_00 | rng.next() & 0x3F_FFFF_FFFF_FF)
            var data: [UInt8] = [0x02, 0x01, 0x06]
            let name = Array("sensor-\(i)-\(rng.next() % 1000)".utf8)
            data += [UInt8(name.count + 1), 0x09] + name
            data += [0x05, 0x03, 0x0D, 0x18, 0x0F, 0x18]
            data += [0x05, 0x16, 0x0F, 0x18, UInt8(rng.next() % 100), 0x00]
            let mfr = (0..<Int(6 + rng.next() % 20)).map { _ in UInt8(truncatingIfNeeded: rng.next()) }
            data += [UInt8(mfr.count + 3), 0xFF, 0x4C, 0x00] + mfr
            return Advertiser(address: address, sid: UInt8(i % 2), data: data, chained: i % 25 == 0)
        }
        var writer = try BTSnoopWriter(datalink: .btsnoopH4)
        var pendingTail: [(Advertiser, [UInt8])] = []
        var n = 0
        func append(_ eventType: UInt16, _ advertiser: Advertiser, _ data: [UInt8]) throws {
            let report = LEExtendedAdvertisingReport(
                eventType: .init(rawValue: eventType), addressType: .random, address: advertiser.address, primaryPHY: 0x01,
                secondaryPHY: 0x02, advertisingSID: advertiser.sid, txPower: 127, rssi: Int8(-40 - Int(rng.next() % 50)), data: data)
            let event = HCIEvent.leMeta(.extendedAdvertisingReport(.init(reports: [report]))).encoded
            try writer.append(CaptureRecord(index: n, timestamp: 1_767_225_600_000_000 + Int64(n) * 1000, direction: .controllerToHost,
                                            packet: .hci(type: .event, payload: event), originalLength: event.count + 1,
                                            capturedLength: event.count + 1))
            n += 1
        }
        while n < count {
            if let (advertiser, tail) = pendingTail.first, n % 3 == 0 || n == count - 1 {
                pendingTail.removeFirst()
                try append(0x0001, advertiser, tail)                       // connectable, complete
                continue
            }
            let advertiser = advertisers[Int(rng.next() % UInt64(advertisers.count))]
            if advertiser.chained && n < count - 2 {
                let cut = advertiser.data.count / 2
                try append(0x0001 | 1 << 5, advertiser, Array(advertiser.data.prefix(cut)))   // more data to come
                pendingTail.append((advertiser, Array(advertiser.data.dropFirst(cut))))
            } else {
                try append(0x0001, advertiser, advertiser.data)
            }
        }
        try FileManager.default.createDirectory(atPath: (path as NSString).deletingLastPathComponent, withIntermediateDirectories: true)
        try Data(writer.bytes).write(to: URL(fileURLWithPath: path))
    }

    /// `rounds` turns of `blectl decode FILE` then `tshark -r FILE` for each file, after one
    /// warm-up run of each (which also brings the files into the page cache). Each of `others`
    /// (another blectl build, by label) takes its turn too.
    static func compare(blectl: String, tshark: String, others: [(label: String, path: String)] = [],
                        files: [(name: String, path: String, records: Int)], rounds: Int = 7) throws -> [Pairs] {
        var pairs = files.map { file in Pairs(name: file.name, records: file.records, others: others.map { ($0.label, []) }) }
        for file in files {
            _ = try Bench.timeProcess(blectl, ["decode", file.path], rounds: 1, warmUp: false)
            _ = try Bench.timeProcess(tshark, ["-r", file.path], rounds: 1, warmUp: false)
            for other in others { _ = try Bench.timeProcess(other.path, ["decode", file.path], rounds: 1, warmUp: false) }
        }
        for _ in 0..<rounds {
            for (i, file) in files.enumerated() {
                pairs[i].ours += try Bench.timeProcess(blectl, ["decode", file.path], rounds: 1, warmUp: false)
                pairs[i].tshark += try Bench.timeProcess(tshark, ["-r", file.path], rounds: 1, warmUp: false)
                for (k, other) in others.enumerated() {
                    pairs[i].others[k].times += try Bench.timeProcess(other.path, ["decode", file.path], rounds: 1, warmUp: false)
                }
            }
        }
        return pairs
    }

    /// The table of `compare`'s figures, and whether each file meets the 10x target; `blectl`
    /// says which build the table's column is.
    static func print(_ pairs: [Pairs], rounds: Int, blectl: String) {
        Swift.print("blectl decode FILE against tshark -r FILE, each a process writing to /dev/null, in turns, median of \(rounds);")
        Swift.print("blectl: \(blectl)")
        Swift.print("| capture | records | blectl decode | tshark -r | ratio (tshark / blectl) |")
        Swift.print("|---|---:|---:|---:|---:|")
        for p in pairs {
            Swift.print("| \(p.name) | \(p.records) | " + String(format: "%.3f s | %.3f s | %.1fx", Pairs.median(p.ours),
                                                                   Pairs.median(p.tshark), p.ratio)
                        + " (target 10x: \(p.ratio >= 10 ? "met" : "NOT met")) |")
        }
        for p in pairs {
            for other in p.others {
                let time = Pairs.median(other.times)
                Swift.print("  \(other.label) on \(p.name): " + String(format: "%.3f s, ratio %.1fx", time, Pairs.median(p.tshark) / time))
            }
        }
        Swift.print("")
    }
}
