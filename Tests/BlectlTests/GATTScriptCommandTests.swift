import Foundation
import Testing

/// `blectl gatt-script` as a user runs it: PASS or FAIL per script, and the exit status.
@Suite("blectl gatt-script")
struct GATTScriptCommandTests {
    static let scripts = BlectlRun.root.appendingPathComponent("Fixtures/gatt-scripts")

    static func fixtureScripts() throws -> [String] {
        try ["client", "server"].flatMap { role in
            let folder = scripts.appendingPathComponent(role)
            return try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasSuffix(".script") }.sorted().map { folder.appendingPathComponent($0).path }
        }
    }

    @Test("every script in Fixtures/ passes, one PASS line each")
    func fixtures() throws {
        let files = try Self.fixtureScripts()
        #expect(!files.isEmpty)
        let run = try BlectlRun(["gatt-script"] + files)
        #expect(run.status == 0, "\(run.output)")
        #expect(run.lines.filter { $0.hasPrefix("PASS ") }.count == files.count)
        #expect(run.lines.last == "\(files.count) of \(files.count) passed")
    }

    @Test("a script whose expectation is wrong fails, naming the line; exit status 1")
    func failing() throws {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("gatt-script-\(UInt64.random(in: 0...UInt64.max))")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let script = folder.appendingPathComponent("LB_SR_wrong.script")
        try """
        role: server
        database: small.json
        send   0a 0300      # Read Request, Battery Level
        expect 0b 63        # wrong: the value is 0x64
        """.write(to: script, atomically: true, encoding: .utf8)
        let databases = BlectlRun.root.appendingPathComponent("Fixtures/gatt-databases").path
        let run = try BlectlRun(["gatt-script", "--databases", databases, script.path])
        #expect(run.status == 1)
        #expect(run.lines.first?.hasPrefix("FAIL LB_SR_wrong") == true, "\(run.output)")
        #expect(run.output.contains("line 4"), "\(run.output)")
        #expect(run.lines.last == "0 of 1 passed")
    }

    @Test("results that cannot be written (a full disk, a closed pipe) end gatt-script with exit status 1 and the reason")
    func outputFailure() throws {
        let files = Array(try Self.fixtureScripts().prefix(3))
        let full = try BlectlRun(["gatt-script"] + files, output: .file("/dev/full"))
        #expect(full.status == 1)
        #expect(full.error == "blectl gatt-script: writing the output failed: No space left on device\n")
        let closed = try BlectlRun(["gatt-script"] + files, output: .closedPipe)
        #expect(closed.status == 1)
        #expect(closed.error == "blectl gatt-script: writing the output failed: Broken pipe\n")
    }

    @Test("no script is a usage error (2); a missing file is a FAIL (1)")
    func errors() throws {
        let none = try BlectlRun(["gatt-script"])
        #expect(none.status == 2)
        #expect(none.error.contains("which scripts?"))
        let missing = try BlectlRun(["gatt-script", "/nonexistent.script"])
        #expect(missing.status == 1)
        #expect(missing.lines.first == "FAIL /nonexistent.script: cannot read it: No such file or directory")
    }
}
