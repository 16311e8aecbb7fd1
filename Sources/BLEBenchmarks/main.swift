// make bench: codec and decoder throughput, the GATT server's request and notification rates and
// the round trips of discovery against a cached reconnection, ATT round trips and notifications
// through the whole host stack on the virtual radio for our client and Bumble's, the same through
// the BLE API next to GATTClient and GATTServer directly, and the wall time of `blectl decode`
// next to tshark's on the same files (a real capture and 10,000 seeded extended advertising
// reports), in turns. Build in release (`swift run -c release`). `BLEBenchmarks decoder` runs
// only the codec and decoder rows and the decode-against-tshark table.

import ATT
import BLECore
import Capture
import Foundation
import HCI

// `BLEBenchmarks host-stack` runs only the host-stack rows; `BLEBenchmarks api`, only the API
// rows; `BLEBenchmarks decoder`, only the codec and decoder rows and blectl decode against tshark.
let only = CommandLine.arguments.dropFirst().first
if only == "host-stack" {
    try await hostStackRows()
    exit(0)
}
if only == "api" {
    try await APIBench.rows()
    exit(0)
}

let corpus = try Corpus.load()
print("LinuxBLE benchmarks (release build); inputs: \(corpus.source)")
print("")

var results: [Bench.Result] = []

let adStructures = corpus.advertisingPayloads.reduce(0) { $0 + AdvertisingData(decoding: $1).elements.count }
results.append(await Bench.measure("AD structures parsed (split into elements)", unit: "AD structures/s", operations: adStructures * 20) {
    var n = 0
    for _ in 0..<20 { for payload in corpus.advertisingPayloads { n &+= AdvertisingData(decoding: payload).elements.count } }
    return n
})
results.append(await Bench.measure("AD structures parsed and decoded to typed values", unit: "AD structures/s", operations: adStructures * 20) {
    var n = 0
    for _ in 0..<20 {
        for payload in corpus.advertisingPayloads {
            for element in AdvertisingData(decoding: payload).elements where element.structure != nil { n &+= 1 }
        }
    }
    return n
})
results.append(await Bench.measure("extended advertising reports through the accumulator", unit: "reports/s", operations: corpus.extendedReports.count * 10) {
    var n = 0
    for _ in 0..<10 {
        var accumulator = AdvertisementAccumulator()
        for report in corpus.extendedReports where accumulator.add(report).advertisement != nil { n &+= 1 }
    }
    return n
})
if only != "decoder" { results.append(try await ScannerBench.reportRate(corpus.extendedReports)) }
results.append(await Bench.measure("ATT PDUs decoded", unit: "PDUs/s", operations: corpus.attPDUs.count * 500) {
    var n = 0
    for _ in 0..<500 { for pdu in corpus.attPDUs { if (try? ATTPDU.decode(pdu)) != nil { n &+= 1 } } }
    return n
})
// The same PDUs the other ways: encoded back, measured without encoding, and described as a line.
let decodedATTPDUs = corpus.attPDUs.compactMap { try? ATTPDU.decode($0) }
results.append(await Bench.measure("ATT PDUs encoded", unit: "PDUs/s", operations: decodedATTPDUs.count * 500) {
    var n = 0
    for _ in 0..<500 { for pdu in decodedATTPDUs { n &+= pdu.encoded.count } }
    return n
})
results.append(await Bench.measure("ATT PDUs' encoded length, without encoding", unit: "PDUs/s", operations: decodedATTPDUs.count * 500) {
    var n = 0
    for _ in 0..<500 { for pdu in decodedATTPDUs { n &+= pdu.encodedLength } }
    return n
})
results.append(await Bench.measure("ATT PDUs described (summary line)", unit: "PDUs/s", operations: decodedATTPDUs.count * 50) {
    var n = 0
    for _ in 0..<50 { for pdu in decodedATTPDUs { n &+= pdu.description.utf8.count } }
    return n
})
results.append(await Bench.measure("ATT PDUs as named fields (JSON)", unit: "PDUs/s", operations: decodedATTPDUs.count * 50) {
    var n = 0
    for _ in 0..<50 { for pdu in decodedATTPDUs { n &+= pdu.fields.count } }
    return n
})

// The whole decoder in this process: read, dissect, and format every line.
let capturePath = FileManager.default.fileExists(atPath: Corpus.realCapture) ? Corpus.realCapture : Corpus.demoCapture
let captureFile = try CaptureFile(contentsOf: capturePath)
let recordCount = captureFile.readAll().records.count
results.append(await Bench.measure("capture records read and dissected (no text)", unit: "records/s", operations: recordCount) {
    var dissector = Dissector()
    var reader = captureFile.makeReader()
    var n = 0
    while let record = try? reader.next() { _ = dissector.dissect(record); n &+= 1 }
    return n
})
results.append(await Bench.measure("capture records dissected and printed as lines", unit: "records/s", operations: recordCount) {
    var dissector = Dissector()
    var reader = captureFile.makeReader()
    var n = 0
    while let record = try? reader.next() { n &+= dissector.dissect(record).line.utf8.count }
    return n
})
results.append(await Bench.measure("capture records dissected and printed as JSON", unit: "records/s", operations: recordCount) {
    var dissector = Dissector()
    var reader = captureFile.makeReader()
    var n = 0
    var json = JSONWriter()
    while let record = try? reader.next() {
        json.removeAll()
        dissector.dissect(record).writeJSON(to: &json)
        n &+= json.output.count
    }
    return n
})

if only != "decoder" {
    results.append(try await GATTBench.requestRate(connections: 1, perConnection: 20_000))
    results.append(try await GATTBench.requestRate(connections: 8, perConnection: 5_000))
    results.append(try await GATTBench.notificationRate(count: 100_000))
}

print("| benchmark | rate (median of 7; GATT: of 5) | best |")
print("|---|---:|---:|")
for r in results {
    print("| \(r.name) | \(Bench.format(r.medianRate)) \(r.unit) | \(Bench.format(r.bestRate)) \(r.unit) |")
}
print("")

if only != "decoder" {
    let trips = try await GATTBench.roundTrips()
    print("ATT requests from a client to the reference database (\(GATTBench.referenceDatabase.split(separator: "/").suffix(2).joined(separator: "/"))), median wall time of 5:")
    print(String(format: "  cold discovery (MTU exchange, services, characteristics, descriptors)  %d requests  %.2f ms", trips.cold, trips.coldSeconds * 1000))
    print(String(format: "  cached reconnection (Database Hash matches, Part G 2.5.2.1)            %d requests  %.2f ms",
                 trips.cached, trips.cachedSeconds * 1000) + (trips.cached == 1 ? "  (target: 1, met)" : "  (target: 1, NOT met)"))
    print("")
    try await hostStackRows()
    try await APIBench.rows()
}

// blectl decode against tshark, each as a process writing to /dev/null, in turns on the same file:
// the real capture (or the demo capture without the shared ones) and 10,000 seeded extended
// advertising reports (DecodeBench). The blectl timed is the one `make install` installs: the
// static build (`make static`, .build/static/release/blectl), when it is there; the release build
// beside this benchmark (dynamically linked) takes its turn too.
let binDirectory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().path
let dynamicBlectl = binDirectory + "/blectl"
let staticBlectl = Corpus.packageRoot + "/.build/static/release/blectl"
try DecodeBench.writeExtendedAdvertisingCapture(to: DecodeBench.syntheticCapture)
let decodeFiles = [((capturePath as NSString).lastPathComponent, capturePath, recordCount),
                   ("10,000 extended advertising reports (seeded, \(DecodeBench.syntheticCapture.split(separator: "/").suffix(2).joined(separator: "/")))",
                    DecodeBench.syntheticCapture, 10_000)]
let hasStatic = FileManager.default.isExecutableFile(atPath: staticBlectl)
let hasDynamic = FileManager.default.isExecutableFile(atPath: dynamicBlectl)
if !hasStatic && !hasDynamic {
    print("blectl decode: not built (run `make static` and `swift build -c release --product blectl` first, as `make bench` does)")
} else if let tshark = ["/usr/bin/tshark", "/usr/local/bin/tshark"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) {
    var others: [(label: String, path: String)] = []
    if hasStatic && hasDynamic { others.append(("dynamically linked blectl (\(dynamicBlectl))", dynamicBlectl)) }
    // LINUXBLE_BASELINE_BLECTL: another blectl build (the main branch's, say) timed in the same turns.
    if let baseline = ProcessInfo.processInfo.environment["LINUXBLE_BASELINE_BLECTL"],
       FileManager.default.isExecutableFile(atPath: baseline) {
        others.append(("baseline blectl (LINUXBLE_BASELINE_BLECTL, \(baseline))", baseline))
    }
    let blectl = hasStatic ? staticBlectl : dynamicBlectl
    let modified = { (path: String) in (try? FileManager.default.attributesOfItem(atPath: path)[.modificationDate]) as? Date }
    if hasStatic, hasDynamic, let s = modified(staticBlectl), let d = modified(dynamicBlectl), s < d {
        print("warning: the static blectl is older than the release build: run `make static` first, as `make bench` does")
    }
    let rounds = 7
    DecodeBench.print(try DecodeBench.compare(blectl: blectl, tshark: tshark, others: others, files: decodeFiles, rounds: rounds),
                      rounds: rounds, blectl: hasStatic ? "\(blectl) (static, as make install installs it)"
                                                        : "\(blectl) (dynamically linked: run make static for the installed build)")
} else {
    print("tshark: not installed (make bench installs it)")
}

// The whole host stack on the virtual radio, client over H4/TCP: ours, then Bumble's host, against
// the same peripheral (our stack and GATT server) in the same run (HostStackBench).
func hostStackRows() async throws {
    let workload = HostStackBench.Workload()
    let python = ProcessInfo.processInfo.environment["LINUXBLE_BUMBLE_PYTHON"]
        .flatMap { FileManager.default.isExecutableFile(atPath: $0) ? $0 : nil }
    // Our client and Bumble's take turns, `pairs` times, so that both meet the same load on this
    // shared machine; the ratio is judged on the median of the pairs' ratios.
    var ours: [HostStackBench.Figures] = [], theirs: [HostStackBench.Figures] = []
    for _ in 0..<HostStackBench.pairs {
        ours.append(try await HostStackBench.ours(workload))
        if let python { theirs.append(try await HostStackBench.bumble(python: python, workload)) }
    }
    let pool = try await HostStackBench.ours(workload, threading: .cooperativePool)
    let reference = try await HostStackBench.ours(workload, overTCP: false)
    print("Host stack on the virtual radio (paced at \(Int(HostStackBench.speed))x), client over H4 on TCP 127.0.0.1 to its controller,")
    print("peripheral = our stack + GATT server (heart-rate-demo.json), 7.5 ms interval, ATT_MTU 247; per run \(workload.rounds) rounds "
          + "after \(workload.warmUp) warm-up; our client and Bumble's alternate, \(HostStackBench.pairs) runs each; the rig's socket "
          + "and peripheral on one HostExecutor, our client's stack, socket and loop on another:")
    print("| client | Read Requests (1 octet), median | best | notifications (2 octets), median | best |")
    print("|---|---:|---:|---:|---:|")
    func row(_ name: String, _ figures: HostStackBench.Figures) {
        let notifications = figures.notifications.map { "\(Bench.format($0.medianRate)) notifications/s | \(Bench.format($0.bestRate))" }
            ?? "\(figures.lost ?? "lost") | -"
        print("| \(name) | \(Bench.format(figures.reads.medianRate)) round trips/s | \(Bench.format(figures.reads.bestRate)) | \(notifications) |")
    }
    let merged = HostStackBench.Figures.merged(ours)
    row("LinuxBLE (this stack)", merged)
    row("LinuxBLE, client stack on the cooperative pool (no HostExecutor; one run)", pool)
    row("LinuxBLE, client on an in-process controller on the rig's thread (no H4/TCP; reference)", reference)
    /// "bench client 62 µs, bench rig 69 µs": figures by name, in name order, in `format`.
    func byName(_ values: [String: Double], _ format: String) -> String {
        values.sorted { $0.key < $1.key }.map { String(format: "%@ " + format, $0.key, $0.value) }.joined(separator: ", ")
    }
    print("CPU per Read Request by thread (median of runs): this stack: \(byName(merged.cpuPerRoundTrip, "%.0f µs")); "
          + "cooperative pool: \(byName(pool.cpuPerRoundTrip, "%.0f µs"))")
    print("Jobs per Read Request by HostExecutor (median of runs): \(byName(merged.jobsPerRoundTrip, "%.1f"))")
    print("Wake-ups from poll(2) per Read Request by HostExecutor (median of runs): \(byName(merged.wakeUpsPerRoundTrip, "%.2f"))")
    print("Per notification (median of runs): CPU by thread \(byName(merged.cpuPerNotification, "%.0f µs")); "
          + "jobs by HostExecutor \(byName(merged.jobsPerNotification, "%.2f")); wake-ups \(byName(merged.wakeUpsPerNotification, "%.2f"))")
    if let floor = LoopbackFloor.roundTripsPerSecond() {
        print("TCP ping-pong on 127.0.0.1 between two threads, one octet each way (the floor of a round trip over H4/TCP): \(Bench.format(floor)) round trips/s")
    }
    guard !theirs.isEmpty else {
        print("| Google Bumble host | (skipped: set LINUXBLE_BUMBLE_PYTHON to a python with bumble==0.0.236, as `make bench` does) | | | |")
        print("")
        return
    }
    row("Google Bumble 0.0.236 host", HostStackBench.Figures.merged(theirs))
    let readRatios = zip(ours, theirs).map { $0.reads.medianRate / $1.reads.medianRate }
    let notificationRatios = zip(ours, theirs).compactMap { mine, bumble in
        mine.notifications.flatMap { m in bumble.notifications.map { m.medianRate / $0.medianRate } }
    }
    func median(_ values: [Double]) -> Double { values.sorted()[values.count / 2] }
    func list(_ values: [Double]) -> String { values.map { String(format: "%.2f", $0) }.joined(separator: ", ") }
    let ratio = median(readRatios)
    let notifications = notificationRatios.count == readRatios.count
        ? String(format: "%.2fx (runs: %@)", median(notificationRatios), list(notificationRatios)) : "n/a (notifications lost)"
    print(String(format: "Ratio LinuxBLE / Bumble, median of the %d pairs: round trips %.2fx (runs: %@), notifications ", readRatios.count, ratio, list(readRatios))
          + notifications + "  (target: round trips at least 2x, \(ratio >= 2 ? "met" : "NOT met"))")
    print("")
}
