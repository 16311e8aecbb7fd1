import Foundation
import Testing

/// One run of the `blectl` built beside the test bundle, as a user runs it: its standard output,
/// standard error and exit status.
struct BlectlRun {
    var status: Int32
    var output: String
    var error: String
    /// The output's lines, without the empty string after the last newline.
    var lines: [Substring] { output.split(separator: "\n", omittingEmptySubsequences: false).dropLast() }
    /// The per-packet lines of `blectl decode`: everything before the blank line that opens the summary.
    var packetLines: [Substring] { Array(lines.prefix { !$0.isEmpty }) }

    /// The repository's root folder.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    /// Where blectl's standard output goes.
    enum Output {
        /// A pipe this run reads to the end: ``output`` holds what was written.
        case captured
        /// A file opened for writing, such as /dev/full (every write fails with ENOSPC).
        case file(String)
        /// A pipe whose reading end is closed before blectl starts (every write fails with EPIPE).
        case closedPipe
    }

    /// The path of the blectl built beside the test bundle.
    static func executable() throws -> String {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [directory, directory.deletingLastPathComponent()].map { $0.appendingPathComponent("blectl").path }
        return try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0) },
                            "blectl is not built next to the tests (\(candidates))")
    }

    /// Runs blectl with `arguments`, writing `input` (if any) to its standard input and then closing it.
    init(_ arguments: [String], input: String? = nil, output target: Output = .captured) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try Self.executable())
        process.arguments = arguments
        let out = Pipe(), err = Pipe()
        switch target {
        case .captured: process.standardOutput = out
        case .file(let path): process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        case .closedPipe:
            process.standardOutput = out
            try out.fileHandleForReading.close()
        }
        process.standardError = err
        let inputPipe = input.map { _ in Pipe() }
        if let inputPipe { process.standardInput = inputPipe } else { process.standardInput = FileHandle.nullDevice }
        try process.run()
        if let inputPipe, let input {
            // Small inputs: the pipe's buffer takes them whole, so writing before reading cannot block.
            inputPipe.fileHandleForWriting.write(Data(input.utf8))
            try inputPipe.fileHandleForWriting.close()
        }
        var output = Data()
        if case .captured = target { output = out.fileHandleForReading.readDataToEndOfFile() }
        let error = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        status = process.terminationStatus
        self.output = String(decoding: output, as: UTF8.self)
        self.error = String(decoding: error, as: UTF8.self)
    }
}
