import Foundation
import Testing
@testable import PDUScript

/// Every script in Fixtures/gatt-scripts/, run against the stack.
@Suite("PDU scripts in Fixtures/gatt-scripts")
struct FixtureScriptTests {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()
    static let scripts = root.appendingPathComponent("Fixtures/gatt-scripts")
    static let databases = root.appendingPathComponent("Fixtures/gatt-databases").path

    static let files: [String] = {
        let enumerator = FileManager.default.enumerator(atPath: scripts.path)
        var files: [String] = []
        while let path = enumerator?.nextObject() as? String {
            if path.hasSuffix(".script") { files.append(path) }
        }
        return files.sorted()
    }()

    @Test("the scripts exist, one per file, named after their test ID")
    func inventory() throws {
        #expect(!Self.files.isEmpty)
        for file in Self.files {
            let text = try String(contentsOf: Self.scripts.appendingPathComponent(file), encoding: .utf8)
            let name = (file as NSString).lastPathComponent.replacingOccurrences(of: ".script", with: "")
            let script = try PDUScript(parsing: text, name: name)
            if let id = script.testID { #expect(id.replacingOccurrences(of: "/", with: "_") == name, "\(file)") }
        }
    }

    @Test("each script passes", arguments: files)
    func run(_ file: String) async throws {
        let text = try String(contentsOf: Self.scripts.appendingPathComponent(file), encoding: .utf8)
        let script = try PDUScript(parsing: text, name: file)
        let outcome = await PDUScriptRunner.run(script, databases: Self.databases)
        #expect(outcome.failures.isEmpty, "\(file): \(outcome.failures.joined(separator: "; "))\n\(outcome.transcript.joined(separator: "\n"))")
    }
}
