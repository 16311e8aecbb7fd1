import Foundation

/// The checkout's Fixtures folder, found from this file's path
/// (`<checkout>/Fuzz/Sources/FuzzSupport/FuzzFixtures.swift`), for harnesses that load a fixture
/// once at start-up (the GATT server's databases).
public enum FuzzFixtures {
    /// `<checkout>/Fixtures`.
    public static let root: String = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Fixtures").path

    /// The paths of the files in `Fixtures/<folder>` whose names end in `suffix`, sorted by name.
    public static func files(in folder: String, suffix: String) -> [String] {
        let directory = root + "/" + folder
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.filter { $0.hasSuffix(suffix) }.sorted().map { directory + "/" + $0 }
    }
}
