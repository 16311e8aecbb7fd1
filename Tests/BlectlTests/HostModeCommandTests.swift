import Foundation
import Testing
@testable import blectl

/// blectl in host mode: the `--transport` words, `blectl demo` (make run), and three blectl
/// processes meeting on one radio through `blectl virtual-controller`.
@Suite("blectl in host mode", .timeLimit(.minutes(2)))
struct HostModeCommandTests {
    @Test("--transport words parse with the BLE API's parser; bad words name the forms")
    func transportWords() throws {
        #expect(try KernelContext.transport(parsing: "kernel:hci1") == .kernel(hci: 1))
        #expect(try KernelContext.transport(parsing: "user:2") == .userChannel(hci: 2))
        #expect(try KernelContext.transport(parsing: "h4:/dev/ttyUSB1@115200,rtscts") == .serial(path: "/dev/ttyUSB1", baudRate: 115_200, flowControl: .rtsCts))
        #expect(try KernelContext.transport(parsing: "tcp:[::1]:9001") == .tcp(host: "::1", port: 9001))
        #expect(try KernelContext.transport(parsing: "virtual").isHostMode)
        for bad in ["usb:1", "kernel:hciX", "h4:ttyS0", "h4:/dev/ttyS0@fast", "tcp:127.0.0.1", "tcp:host:0", "tcp::80", ""] {
            let error = #expect(throws: KernelContext.Failure.self, "'\(bad)'") { try KernelContext.transport(parsing: bad) }
            #expect(error?.description.contains("kernel:hciN, user:hciN, h4:/dev/ttyX[@BAUD][,rtscts], tcp:HOST:PORT or virtual") == true)
        }
    }

    @Test("blectl demo: scan, connect, discover, read, ten measurements, a write, and the cached reconnection in one round trip")
    func demo() throws {
        let capture = FileManager.default.temporaryDirectory.appendingPathComponent("demo-\(UUID().uuidString).btsnoop").path
        defer { try? FileManager.default.removeItem(atPath: capture) }
        let database = BlectlRun.root.appendingPathComponent("Fixtures/gatt-databases/heart-rate-sensor.json").path
        let run = try BlectlRun(["demo", "--db", database, "--capture", capture])
        #expect(run.status == 0, "\(run.error)")
        #expect(run.error.isEmpty)
        let lines = run.lines
        #expect(lines.first == "LinuxBLE demo: a heart-rate sensor and a central on the virtual radio (host mode, no Bluetooth hardware)")
        #expect(lines.contains { $0.hasPrefix("central: found \"LinuxBLE HR\"") })
        #expect(lines.contains("central: Body Sensor Location: Chest"))
        let measurements = lines.filter { $0.hasPrefix("  ") && $0.contains(" bpm, RR ") }
        #expect(measurements.count == 10)
        // Which beat comes first depends on when the subscription lands; each is a sensor value.
        for line in measurements {
            #expect(line.wholeMatch(of: /\ \ (7[0-5]) bpm, RR 0\.8[0-6] s/) != nil, "\(line)")
        }
        #expect(lines.contains("central: wrote Heart Rate Control Point 01 (reset Energy Expended)"))
        #expect(lines.contains { $0.contains("from the cache in 1 ATT round trip (the Database Hash)") })
        #expect(lines.filter { $0 == "central: disconnected: Connection Terminated By Local Host (0x16)" }.count == 2)
        // The capture decodes: the ten notifications are in it.
        let decoded = try BlectlRun(["decode", capture])
        #expect(decoded.status == 0)
        #expect(decoded.lines.filter { $0.contains("ATT Handle Value Notification") }.count == 10)
    }

    @Test("three processes on one radio: virtual-controller serves two controllers, serve on one, read from the other")
    func threeProcesses() async throws {
        let controllers = try Background(["virtual-controller", "--listen", "tcp:127.0.0.1:0", "--listen", "tcp:127.0.0.1:0", "--speed", "20"])
        defer { controllers.stop() }
        let ports = try await controllers.lines(2, matching: "listening on tcp:127.0.0.1:").map { $0.split(separator: ":").last.map(String.init) ?? "" }
        let database = BlectlRun.root.appendingPathComponent("Fixtures/gatt-databases/small.json").path
        let serve = try Background(["--transport", "tcp:127.0.0.1:\(ports[0])", "serve", "--db", database, "--name", "Three"])
        defer { serve.stop() }
        let serving = try await serve.lines(1, matching: "serving ")[0]
        // "serving FILE on tcp:127.0.0.1:P (C4:...:..., random) as "Three"; Ctrl-C ends"
        let address = try #require(serving.split(separator: "(").last?.split(separator: ",").first.map(String.init))
        let read = try BlectlRun(["--transport", "tcp:127.0.0.1:\(ports[1])", "read", address, "2A19", "--random"])
        #expect(read.status == 0, "\(read.error)")
        #expect(read.output.contains("64"), "\(read.output)")
    }
}

/// A blectl process in the background, its output read line by line.
final class Background: @unchecked Sendable {
    let process = Process()
    private let output = Pipe()
    private var buffered = ""

    init(_ arguments: [String]) throws {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let candidates = [directory, directory.deletingLastPathComponent()].map { $0.appendingPathComponent("blectl").path }
        let executable = try #require(candidates.first { FileManager.default.isExecutableFile(atPath: $0) })
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = FileHandle.nullDevice
        try process.run()
    }

    /// The first `count` lines containing `text`, waiting up to 20 s for them.
    func lines(_ count: Int, matching text: String) async throws -> [String] {
        let handle = output.fileHandleForReading
        let deadline = ContinuousClock.now + .seconds(20)
        var found: [String] = []
        while found.count < count, ContinuousClock.now < deadline {
            let chunk = handle.availableData   // blocks until output or end of file
            if chunk.isEmpty { break }
            buffered += String(decoding: chunk, as: UTF8.self)
            while let newline = buffered.firstIndex(of: "\n") {
                let line = String(buffered[..<newline])
                buffered = String(buffered[buffered.index(after: newline)...])
                if line.contains(text) { found.append(line) }
            }
        }
        try #require(found.count == count, "expected \(count) lines with '\(text)', got \(found)")
        return found
    }

    /// Stops the process with SIGINT (blectl's Ctrl-C), then SIGKILL if it lingers.
    func stop() {
        guard process.isRunning else { return }
        process.interrupt()
        for _ in 0..<100 where process.isRunning { usleep(20_000) }
        if process.isRunning { kill(process.processIdentifier, SIGKILL) }
        process.waitUntilExit()
    }
}

/// One rule for the global options, and short usage errors.
@Suite("blectl usage errors")
struct UsageRuleTests {
    @Test("a global option after any command gets the same hint, and a usage error ends with one line naming the help")
    func globalOptionsAfterTheCommand() throws {
        for command in [["power", "on"], ["scan"], ["serve", "--db", "x.json"], ["list"], ["gatt", "00:AA:01:00:00:00"], ["decode", "f"]] {
            let run = try BlectlRun(command + ["--hci", "0"])
            #expect(run.status == 2, "\(command)")
            #expect(run.error == "blectl \(command[0]): --hci goes before the command: blectl --hci N \(command[0]) ...\nrun 'blectl help' for the commands and the global options\n",
                    "\(command): \(run.error)")
        }
        let transport = try BlectlRun(["scan", "--transport", "virtual"])
        #expect(transport.error.hasPrefix("blectl scan: --transport goes before the command: blectl --transport WORD scan ..."))
        let bad = try BlectlRun(["scan", "--duration", "x"])
        #expect(bad.status == 2)
        #expect(bad.error == "blectl scan: --duration takes seconds (0 < S <= 86400)\nrun 'blectl scan --help' for its options\n", "\(bad.error)")
        #expect(bad.error.split(separator: "\n").count == 2, "the reason and where the help is, not the whole help")
    }
}
