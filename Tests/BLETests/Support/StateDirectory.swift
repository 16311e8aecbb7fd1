@testable import BLE
import Foundation

/// A fresh directory under the system's temporary directory for one test's restoration state,
/// removed by ``remove()``.
struct StateDirectory {
    let url: URL

    init() throws {
        url = FileManager.default.temporaryDirectory.appendingPathComponent("linuxble-restoration-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    /// Options restoring under `identifier` from this directory.
    func options(_ identifier: String) -> ManagerOptions {
        ManagerOptions(restoreIdentifier: identifier, stateDirectory: url)
    }

    /// The state file of the manager of `role` ("central", "peripheralManager") under `identifier`.
    func file(_ role: String, _ identifier: String) -> StateFile {
        StateFile(directory: url, role: role, identifier: identifier)
    }

    /// The names in the directory, sorted.
    var names: [String] { ((try? FileManager.default.contentsOfDirectory(atPath: url.path)) ?? []).sorted() }

    /// The octets of the file `name` in the directory.
    func contents(_ name: String) throws -> [UInt8] {
        [UInt8](try Data(contentsOf: url.appendingPathComponent(name)))
    }

    /// Writes `octets` to the file `name` in the directory (not atomically: the way a damaged
    /// or foreign file would get there).
    func put(_ octets: [UInt8], as name: String) throws {
        try Data(octets).write(to: url.appendingPathComponent(name))
    }

    func remove() { try? FileManager.default.removeItem(at: url) }
}
