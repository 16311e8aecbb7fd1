import BLECore
import Capture
import Foundation
import FuzzSupport
import GATT
import PDUScript

/// Writes every harness's seed corpus from the repository's fixtures (its btsnoop, pcap and PacketLogger
/// captures, PDU scripts and GATT databases), or, when capture files are
/// named on the command line, from those alone (extra seeds read at fuzz time, never copied into
/// the repository):
///
///     FuzzSeeds OUTPUT [CAPTURE...]
///
/// OUTPUT gets one folder per harness (`OUTPUT/FuzzATTPDU/seed-0000`, ...). From the fixtures
/// the output is the same on every run, which `make test`'s fixed-seed pass relies on.
@main
struct FuzzSeeds {
    static func main() throws {
        let arguments = CommandLine.arguments.dropFirst()
        guard let output = arguments.first else {
            FileHandle.standardError.write(Data("usage: FuzzSeeds OUTPUT [CAPTURE...]\n".utf8))
            exit(2)
        }
        var seeds = CaptureSeeds(corpora: [:])
        let extra = Array(arguments.dropFirst())
        let fixtures = [".btsnoop", ".pcap", ".pklg"].flatMap { FuzzFixtures.files(in: "captures", suffix: $0) }
        let captures = extra.isEmpty ? fixtures : extra
        for path in captures {
            do {
                let file = try CaptureFile(contentsOf: path)
                seeds.add(file: file, bytes: file.bytes)
            } catch {
                FileHandle.standardError.write(Data("FuzzSeeds: \(path): \(error)\n".utf8))
                exit(1)
            }
        }
        if extra.isEmpty { try addFixtures(to: &seeds) }
        for corpus in seeds.corpora.values.sorted(by: { $0.harness < $1.harness }) {
            try corpus.write(to: output)
            print("\(corpus.harness): \(corpus.seeds.count) seeds")
        }
    }

    /// The seeds of the PDU scripts and the ones written from the specification.
    static func addFixtures(to seeds: inout CaptureSeeds) throws {
        let databases = FuzzFixtures.files(in: "gatt-databases", suffix: ".json").filter { (try? GATTDatabase(jsonFile: $0)) != nil }
        let scripts = ScriptSeeds(databases: databases)
        for role in ["server", "client"] {
            for path in FuzzFixtures.files(in: "gatt-scripts/" + role, suffix: ".script") {
                let text = try String(contentsOfFile: path, encoding: .utf8)
                let name = URL(fileURLWithPath: path).deletingPathExtension().lastPathComponent
                scripts.add(try PDUScript(parsing: text, name: name), to: &seeds)
            }
        }
        for (harness, octets) in BuiltSeeds.all { for seed in octets { seeds.add(harness, seed) } }
    }
}
