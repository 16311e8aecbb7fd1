import Foundation

/// Wireshark's command-line dissector, the reference the capture tests cross-check against.
public enum Tshark {
    /// Why ``run(_:)`` could not run tshark.
    public struct NotInstalled: Error, CustomStringConvertible {
        public var description: String { "tshark is not installed in /usr/bin or /usr/local/bin" }
    }

    /// The tshark executable, nil when it is not installed.
    public static let path: String? = ["/usr/bin/tshark", "/usr/local/bin/tshark"].first {
        FileManager.default.isExecutableFile(atPath: $0)
    }

    /// Runs tshark with `arguments` and returns its standard output (standard error is
    /// discarded).
    ///
    /// - Throws: ``NotInstalled`` when ``path`` is nil; whatever `Process.run()` throws.
    public static func run(_ arguments: [String]) throws -> String {
        guard let path else { throw NotInstalled() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self)
    }
}
