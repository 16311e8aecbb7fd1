import Foundation
import PDUScript

/// `blectl gatt-script FILE... [--databases DIR] [--verbose]`: runs PDU scripts (docs/pdu-scripts.md)
/// and reports each as PASS or FAIL with the failing line; exit status 1 if any failed.
enum GATTScriptCommand {
    static let usage = """
    usage: blectl gatt-script FILE... [--databases DIR] [--verbose]

    Runs PDU scripts (docs/pdu-scripts.md) against the stack's GATT server or client and prints PASS or
    FAIL for each, with the failing line. A script's `database:` is looked up in DIR (default: the
    gatt-databases folder beside the scripts' folder, as in Fixtures/, else the current folder).
    --verbose prints every PDU exchanged. Exit status: 0 all passed, 1 one failed or the results could
    not be written (a full disk, a closed pipe: the system's reason goes to standard error), 2 a usage
    error.
    """

    static let databasesOption = CommandOption.value("--databases", "DIR", takes: "a folder")
    static let verboseOption = CommandOption.flag("--verbose")
    static let syntax = CommandSyntax(name: "gatt-script", operands: "FILE...", options: [databasesOption, verboseOption], help: usage)

    static func run(arguments: [String], output: inout OutputBuffer) async -> Int32 {
        let parsed: ParsedArguments
        do { parsed = try syntax.parse(arguments, output: &output) } catch { return error.status }
        let files = parsed.operands
        let databases = parsed.value(of: databasesOption)
        let verbose = parsed.contains(verboseOption)
        guard !files.isEmpty else { return syntax.usageError("which scripts?") }
        var failed = 0
        for file in files {
            let url = URL(fileURLWithPath: file)
            let name = url.deletingPathExtension().lastPathComponent
            let script: PDUScript
            let text: String
            do { text = try String(contentsOf: url, encoding: .utf8) } catch {
                let posix = (error as NSError).userInfo[NSUnderlyingErrorKey] as? POSIXError
                output.line("FAIL \(file): cannot read it: \(posix.map { String(cString: strerror($0.code.rawValue)) } ?? error.localizedDescription)")
                failed += 1
                continue
            }
            do {
                script = try PDUScript(parsing: text, name: name)
            } catch {
                output.line("FAIL \(file): \(error)")
                failed += 1
                continue
            }
            let folder = databases ?? defaultDatabases(for: url)
            let outcome = await PDUScriptRunner.run(script, databases: folder)
            output.line("\(outcome.passed ? "PASS" : "FAIL") \(script.testID ?? name)"
                        + (outcome.passed ? "" : ": " + outcome.failures.joined(separator: "; ")))
            if verbose || !outcome.passed { for line in outcome.transcript { output.line("    " + line) } }
            if !outcome.passed { failed += 1 }
            // Each result is written as it is known; output that cannot be written ends the run.
            output.flush()
            if let lost = output.stopReason { return writeFailure(lost) }
        }
        output.line("\(files.count - failed) of \(files.count) passed")
        output.flush()
        if let lost = output.stopReason { return writeFailure(lost) }
        return failed == 0 ? 0 : 1
    }

    /// Reports that the results could not be written, with the system's reason; exit status 1.
    static func writeFailure(_ reason: String) -> Int32 {
        printError("blectl gatt-script: writing the output failed: \(reason)")
        return 1
    }

    /// Fixtures/gatt-databases for a script in Fixtures/gatt-scripts/<role>/, else the current folder.
    static func defaultDatabases(for script: URL) -> String {
        let candidate = script.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("gatt-databases").path
        return FileManager.default.fileExists(atPath: candidate) ? candidate : FileManager.default.currentDirectoryPath
    }
}
