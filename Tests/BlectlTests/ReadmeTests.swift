import Foundation
import Testing

/// README.md cannot drift from the code: its library example is the example package's code, and
/// its command examples marked runnable (``ReadmeExample``) run, their output compared.
@Suite("README")
struct ReadmeTests {
    static func readme() throws -> String {
        try String(contentsOf: BlectlRun.root.appendingPathComponent("README.md"), encoding: .utf8)
    }

    @Test("the quick-start code in README equals Examples/LibraryQuickStart's main.swift, and its output the expected output")
    func quickStartInReadme() throws {
        let readme = try Self.readme()
        let example = BlectlRun.root.appendingPathComponent("Examples/LibraryQuickStart")
        let main = try String(contentsOf: example.appendingPathComponent("Sources/LibraryQuickStart/main.swift"), encoding: .utf8)
        let expected = try String(contentsOf: example.appendingPathComponent("expected-output.txt"), encoding: .utf8)
        let begin = try #require(readme.range(of: "<!-- quickstart:begin"))
        let end = try #require(readme.range(of: "<!-- quickstart:end -->"))
        let block = readme[begin.upperBound..<end.lowerBound]
        let code = try #require(block.range(of: "```swift\n"))
        #expect(String(block[code.upperBound...]).hasSuffix("```\n"))
        #expect(String(block[code.upperBound...].dropLast(4)) == main)
        #expect(readme.contains("$ swift run --package-path Examples/LibraryQuickStart\n" + expected + "```"))
    }

    @Test("every command example README marks runnable exits 0 and prints what README shows")
    func runnableExamplesRun() throws {
        let examples = try ReadmeExample.all(in: try Self.readme())
        #expect(examples.count >= 3, "README marks \(examples.count) examples \(ReadmeExample.marker); it had decode, serve and gatt-script")
        for example in examples {
            let run = try Self.shell(example.shellCommand)
            #expect(run.status == 0, "README.md line \(example.line): `\(example.command)` exited \(run.status): \(run.error)")
            if let mismatch = example.mismatch(run.output) {
                Issue.record("\(mismatch)\n(the example: `\(example.command)`; its standard error: \(run.error))")
            }
        }
    }

    @Test("README's count of the kernel lane's pinned guest packages is the number of pins in Tests/Kernel/guest-packages.txt")
    func pinnedPackageCount() throws {
        let readme = try Self.readme()
        let pins = try String(contentsOf: BlectlRun.root.appendingPathComponent("Tests/Kernel/guest-packages.txt"), encoding: .utf8)
            .split(separator: "\n").map { $0.prefix { $0 != "#" }.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let phrase = try #require(readme.range(of: #"the \d+ packages pinned in"#, options: .regularExpression),
                                  "README.md no longer says 'the N packages pinned in' Tests/Kernel/guest-packages.txt")
        let line = readme[..<phrase.lowerBound].filter { $0 == "\n" }.count + 1
        let said = Int(readme[phrase].split(separator: " ")[1])
        #expect(said == pins.count, "README.md line \(line) says the \(said ?? 0) packages pinned; Tests/Kernel/guest-packages.txt pins \(pins.count)")
    }

    /// Runs `command` in /bin/sh from the repository's root, with the built blectl first on the PATH.
    static func shell(_ command: String) throws -> (status: Int32, output: String, error: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/sh")
        process.arguments = ["-c", command]
        process.currentDirectoryURL = BlectlRun.root
        var environment = ProcessInfo.processInfo.environment
        let folder = URL(fileURLWithPath: try BlectlRun.executable()).deletingLastPathComponent().path
        environment["PATH"] = folder + ":" + (environment["PATH"] ?? "/usr/bin:/bin")
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // As in BlectlRun: the examples write little to standard error, so it cannot fill its pipe
        // while standard output is read to its end.
        let output = out.fileHandleForReading.readDataToEndOfFile()
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: error, as: UTF8.self))
    }
}
