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

    static func run(arguments: [String], output: inout OutputBuffer) async -> Int32 {
        var files: [String] = []
        var databases: String?
        var verbose = false
        var rest = arguments[...]
        while let argument = rest.popFirst() {
            switch argument {
            case "-h", "--help":
                output.line(usage)
                return 0
            case "--verbose": verbose = true
            case "--databases":
                guard let value = rest.popFirst() else {
                    printError("blectl gatt-script: --databases needs a folder")
                    return 2
                }
                databases = value
            case _ where argument.hasPrefix("-"):
                printError("blectl gatt-script: unknown option '\(argument)'\n\(BlectlCommand.helpLine("gatt-script"))")
                return 2
            default: files.append(argument)
            }
        }
        guard !files.isEmpty else {
            printError("blectl gatt-script: which scripts?\n\(BlectlCommand.helpLine("gatt-script"))")
            return 2
        }
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
