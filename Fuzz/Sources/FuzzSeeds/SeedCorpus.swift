import Foundation

/// The seeds of one harness, written as files named by their index into
/// `<output>/<harness>/`, each at most once.
struct SeedCorpus {
    let harness: String
    private(set) var seeds: [[UInt8]] = []
    private var seen: Set<[UInt8]> = []

    init(_ harness: String) { self.harness = harness }

    /// Adds `seed` unless it is already there.
    mutating func add(_ seed: [UInt8]) {
        guard seen.insert(seed).inserted else { return }
        seeds.append(seed)
    }

    /// Writes every seed into a fresh `<output>/<harness>/`.
    func write(to output: String) throws {
        let folder = output + "/" + harness
        try? FileManager.default.removeItem(atPath: folder)
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        for (index, seed) in seeds.enumerated() {
            let name = folder + "/" + String(format: "seed-%04d", index)
            guard FileManager.default.createFile(atPath: name, contents: Data(seed)) else {
                throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: name])
            }
        }
    }
}
