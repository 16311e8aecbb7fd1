import Capture
import Foundation
import Glibc
import LinuxBluetooth
import Testing
@testable import blectl

/// `blectl monitor`'s decoding of live monitor frames (the channel itself is the kernel's: the
/// kernel lane runs the command against it): lines as `blectl decode` prints them, the summary,
/// and `--write`'s btsnoop file, which decodes to the same lines.
@Suite("blectl monitor", .timeLimit(.minutes(1)))
struct MonitorCommandTests {
    /// hci0 appears (New Index), a Reset goes out and its Command Complete comes back, an ATT
    /// Read Request leaves on a link and its response arrives.
    static let frames: [HCIMonitorSocket.Frame] = [
        .init(opcode: 0x0000, index: 0, payload: [0x00, 0x01] + [0x11, 0x22, 0x33, 0x44, 0x55, 0x66] + Array("hci0".utf8) + [0, 0, 0, 0],
              timestamp: 1_764_000_000_000_000),
        .init(opcode: 0x0002, index: 0, payload: [0x03, 0x0C, 0x00], timestamp: 1_764_000_000_000_100),
        .init(opcode: 0x0003, index: 0, payload: [0x0E, 0x04, 0x01, 0x03, 0x0C, 0x00], timestamp: 1_764_000_000_000_300),
        .init(opcode: 0x0004, index: 0, payload: [0x40, 0x00, 0x07, 0x00, 0x03, 0x00, 0x04, 0x00, 0x0A, 0x03, 0x00],
              timestamp: 1_764_000_000_001_000),
        .init(opcode: 0x0005, index: 0, payload: [0x40, 0x20, 0x06, 0x00, 0x02, 0x00, 0x04, 0x00, 0x0B, 0x64],
              timestamp: 1_764_000_000_009_000),
    ]

    static func temporary(_ suffix: String) -> String {
        FileManager.default.temporaryDirectory.appendingPathComponent("blectl-monitor-\(UUID().uuidString)\(suffix)").path
    }

    /// Runs the command's decoding on `frames`, its output in a file.
    static func decode(_ frames: [HCIMonitorSocket.Frame], json: Bool = false, writing path: String? = nil) async throws
        -> (status: Int32, lines: [String]) {
        let out = temporary(".out")
        defer { try? FileManager.default.removeItem(atPath: out) }
        try #require(FileManager.default.createFile(atPath: out, contents: nil))
        let descriptor = open(out, O_WRONLY | O_APPEND | O_CLOEXEC)
        try #require(descriptor >= 0)
        defer { close(descriptor) }
        var output = OutputBuffer(fileDescriptor: descriptor)
        let (stream, input) = AsyncStream.makeStream(of: HCIMonitorSocket.Frame.self)
        for frame in frames { input.yield(frame) }
        input.finish()
        let file = try path.map { try BTSnoopStream(path: $0, datalink: .btsnoopMonitor) }
        let status = await MonitorCommand.decode(stream, json: json, summary: true, writing: file, output: &output)
        file?.close()
        return (status, try String(contentsOfFile: out, encoding: .utf8).split(separator: "\n").map(String.init))
    }

    @Test("each frame becomes the line blectl decode prints, with its adapter; the summary counts the ATT PDUs; --write's file decodes to the same lines")
    func linesAndFile() async throws {
        let path = Self.temporary(".btsnoop")
        defer { try? FileManager.default.removeItem(atPath: path) }
        let (status, lines) = try await Self.decode(Self.frames, writing: path)
        #expect(status == 0)
        #expect(lines.count > Self.frames.count, "the packet lines, then the summary")
        let packets = Array(lines.prefix(Self.frames.count))
        #expect(packets[1].contains("[hci0]") && packets[1].contains("Reset"))
        #expect(packets[3].contains("ATT") && packets[3].contains("Read Request"))
        #expect(packets[4].contains("Read Response"))

        let file = try CaptureFile(contentsOf: path)
        #expect(file.format == .btsnoop && file.linkType == .btsnoopMonitor)
        var reader = file.makeReader()
        var dissector = Dissector()
        var decoded: [String] = []
        while let record = try reader.next() { decoded.append(dissector.dissect(record).line) }
        #expect(decoded == packets, "the file holds what was shown, record for record")
    }

    @Test("--json gives one object per packet, then the summary object")
    func json() async throws {
        let (status, lines) = try await Self.decode(Self.frames, json: true)
        #expect(status == 0)
        #expect(lines.count == Self.frames.count + 1)
        #expect(lines.allSatisfy { $0.hasPrefix("{") })
        #expect(lines.last?.hasPrefix("{\"summary\"") == true)
    }

    @Test("a --write that cannot be written is refused before anything runs")
    func unwritableFile() {
        #expect(throws: CaptureWriteError.self) { _ = try BTSnoopStream(path: "/nonexistent-folder/x.btsnoop", datalink: .btsnoopMonitor) }
    }
}
