import Foundation
import Testing

/// `blectl decode` as a user runs it: the built executable, its output and its exit status.
@Suite("blectl decode")
struct DecodeCommandTests {
    static let root = BlectlRun.root
    static let demo = root.appendingPathComponent("Fixtures/captures/bumble-heart-rate.btsnoop").path

    typealias Run = BlectlRun

    /// Runs the blectl built beside this test bundle.
    static func blectl(_ arguments: String...) throws -> Run {
        try BlectlRun(arguments)
    }

    @Test("one line per packet down to ATT, then the summary with the GATT table")
    func text() throws {
        let run = try Self.blectl("decode", Self.demo)
        #expect(run.status == 0)
        #expect(run.error.isEmpty)
        #expect(run.packetLines.count == 221)
        #expect(run.packetLines.allSatisfy { $0.hasPrefix(" ") })
        #expect(run.lines.contains { $0.hasSuffix("H>C ACL 0x0040 ATT Write Request handle 0x0015 (Heart Rate Control Point) value 01") })
        #expect(run.lines.contains("Summary"))
        #expect(run.lines.contains("    D0:0D:FE:ED:48:52 (random) \"LinuxBLE HR\", 6 advertising reports, last RSSI -55 dBm, connectable"))
        #expect(run.lines.contains("      0x0015 Characteristic 2A39 (Heart Rate Control Point) [write]"))
        let noSummary = try Self.blectl("decode", "--no-summary", Self.demo)
        #expect(noSummary.lines.count == 221)
    }

    @Test("an nRF Sniffer capture: directions from its header, CRC and MIC errors shown and not decoded, the GATT table")
    func nordicSniffer() throws {
        let run = try Self.blectl("decode", Self.root.appendingPathComponent("Fixtures/captures/heart-rate-nrf-sniffer-v3.pcap").path)
        #expect(run.status == 0)
        #expect(run.error.isEmpty)
        #expect(run.packetLines.count == 172)
        #expect(run.lines.contains { $0.hasSuffix("C>P LL 0x50654c14 ATT Exchange MTU Request Client Rx MTU 64") })
        #expect(run.lines.contains { $0.hasSuffix("   62     1.015719 C>P LL 0x50654c14 CRC error, not decoded") })
        #expect(run.lines.contains { $0.hasSuffix("P>C LL 0x50654c14 MIC error (decrypted incorrectly), not decoded") })
        #expect(run.lines.contains("  ATT PDUs: 104"))
        #expect(run.lines.contains("      0x0015 Characteristic 2A39 (Heart Rate Control Point) [write]"))
    }

    @Test("a PacketLogger capture: the same HCI lines as the btsnoop it was made from, and its notes as text")
    func packetLogger() throws {
        let run = try Self.blectl("decode", "--no-summary", Self.root.appendingPathComponent("Fixtures/captures/heart-rate-be.pklg").path)
        #expect(run.status == 0)
        #expect(run.lines.count == 223)
        #expect(run.lines[0].hasSuffix("--- PacketLogger Note: LinuxBLE fixture: Fixtures/captures/bumble-heart-rate.btsnoop as PacketLogger"))
        let source = try Self.blectl("decode", "--no-summary", Self.demo)
        // Frame numbers move by the notes; the summaries do not.
        func summaries(_ lines: [Substring]) -> [String] { lines.filter { !$0.contains("PacketLogger") }.map { String($0.dropFirst(20)) } }
        #expect(summaries(run.lines) == summaries(source.lines))
    }

    @Test("--json: every line is a JSON object; ATT packets carry att.opcode as an integer; the summary comes last")
    func json() throws {
        let run = try Self.blectl("decode", "--json", Self.demo)
        #expect(run.status == 0)
        let objects = try run.lines.map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not an object: \(line)")
        }
        #expect(objects.count == 222)
        let att = objects.compactMap { $0["att"] as? [String: Any] }
        #expect(att.count == 105)
        #expect(att.allSatisfy { $0["opcode"] is Int && $0["name"] is String })
        let write = try #require(att.first { $0["opcode"] as? Int == 0x12 })
        #expect(write["handle"] as? Int == 0x15)
        #expect((write["handle_names"] as? [String: String])?["0x0015"] == "Heart Rate Control Point")
        let summary = try #require(objects.last?["summary"] as? [String: Any])
        #expect(summary["records"] as? Int == 221)
    }

    @Test("a damaged capture prints every good record, then the error with its offset, and exits 1")
    func damaged() throws {
        let bytes = try Data(contentsOf: URL(fileURLWithPath: Self.demo))
        let cut = FileManager.default.temporaryDirectory.appendingPathComponent("blectl-cut-\(getpid()).btsnoop")
        defer { try? FileManager.default.removeItem(at: cut) }
        // File header 16 octets; records of 24 + 4, 24 + 7, 24 + 4 and 24 + 71 octets end at 198;
        // the 5th record header is cut after 2 of its 24 octets.
        try bytes.prefix(200).write(to: cut)
        let run = try Self.blectl("decode", cut.path)
        #expect(run.status == 1)
        #expect(run.packetLines.count == 5)
        #expect(run.packetLines.last == "!! capture file damaged at offset 198: btsnoop record header at offset 198 needs 24 octets, 2 left in the file")
        #expect(run.lines.contains("Summary"))
    }

    @Test("an Ethernet pcap is listed, not decoded, and the exit status and message say so")
    func notBluetooth() throws {
        // pcap header: magic a1b2c3d4 (big-endian), version 2.4, snaplen 65535, LINKTYPE_ETHERNET (1);
        // one record of 14 octets (an Ethernet header).
        var bytes: [UInt8] = [0xA1, 0xB2, 0xC3, 0xD4, 0, 2, 0, 4, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF, 0, 0, 0, 1]
        bytes += [0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 14, 0, 0, 0, 14] + [UInt8](repeating: 0xAB, count: 12) + [0x08, 0x00]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("blectl-ethernet-\(getpid()).pcap")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(bytes).write(to: file)
        let run = try Self.blectl("decode", file.path)
        #expect(run.status == 1)
        #expect(run.error == "blectl decode: \(file.path): pcap link type 1 is not a Bluetooth link type this decoder reads "
                + "(BLUETOOTH_HCI_H4 (187), BLUETOOTH_HCI_H4_WITH_PHDR (201), BLUETOOTH_LINUX_MONITOR (254), BLUETOOTH_LE_LL (251), "
                + "BLUETOOTH_LE_LL_WITH_PHDR (256), NORDIC_BLE (272), PPI (192)); its records are listed, not decoded\n", "\(run.error)")
        #expect(run.packetLines.count == 1)
    }

    @Test("an unknown btsnoop datalink is answered with the btsnoop datalinks this decoder reads, not pcap's link types")
    func unknownBTSnoopDatalink() throws {
        // btsnoop header: "btsnoop\0", version 1, datalink 999 (none assigned); no record.
        let bytes: [UInt8] = Array("btsnoop".utf8) + [0, 0, 0, 0, 1, 0, 0, 0x03, 0xE7]
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("blectl-datalink-\(getpid()).btsnoop")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(bytes).write(to: file)
        let run = try Self.blectl("decode", "--no-summary", file.path)
        #expect(run.status == 1)
        #expect(run.error == "blectl decode: \(file.path): btsnoop datalink 999 is not a Bluetooth datalink this decoder reads "
                + "(btsnoop HCI (1001), btsnoop H4 (1002), btsnoop Linux monitor (2001)); its records are listed, not decoded\n",
                "\(run.error)")
    }

    @Test("a file that cannot be opened is named once, with the system's reason")
    func missingFileNamedOnce() throws {
        let missing = try Self.blectl("decode", "/nonexistent/capture.btsnoop")
        #expect(missing.status == 1)
        #expect(missing.error == "blectl decode: cannot read /nonexistent/capture.btsnoop: No such file or directory\n", "\(missing.error)")
        let directory = try Self.blectl("decode", "/tmp")
        #expect(directory.error == "blectl decode: cannot read /tmp: it is a directory\n", "\(directory.error)")
    }

    @Test("output that cannot be written (a full disk) is an error, not a silent success")
    func fullDisk() throws {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let executable = [directory, directory.deletingLastPathComponent()].map { $0.appendingPathComponent("blectl").path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(executable))
        process.arguments = ["decode", Self.demo]
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: "/dev/full"))
        let err = Pipe()
        process.standardError = err
        try process.run()
        let message = String(decoding: err.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 1)
        #expect(message.contains("writing the output failed: No space left on device"))
    }

    @Test("FILE - reads the capture from standard input")
    func standardInput() throws {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let executable = [directory, directory.deletingLastPathComponent()].map { $0.appendingPathComponent("blectl").path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(executable))
        process.arguments = ["decode", "--no-summary", "-"]
        process.standardInput = try FileHandle(forReadingFrom: URL(fileURLWithPath: Self.demo))
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        let output = String(decoding: out.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
        #expect(output.split(separator: "\n").count == 221)
    }

    @Test("a reader that goes away (blectl decode F | head -1) stops blectl quietly, not by SIGPIPE")
    func closedPipe() throws {
        let directory = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
        let executable = [directory, directory.deletingLastPathComponent()].map { $0.appendingPathComponent("blectl").path }
            .first { FileManager.default.isExecutableFile(atPath: $0) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try #require(executable))
        process.arguments = ["decode", Self.demo]
        let out = Pipe()
        process.standardOutput = out
        process.standardError = FileHandle.nullDevice
        // Closing the read end before blectl writes makes its first write fail with EPIPE.
        try out.fileHandleForReading.close()
        try process.run()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
    }

    @Test("bad arguments and unreadable files say what is wrong")
    func errors() throws {
        let none = try Self.blectl()
        #expect(none.status == 2)
        #expect(none.error.contains("usage: blectl"))
        let noFile = try Self.blectl("decode")
        #expect(noFile.status == 2)
        #expect(noFile.error.contains("which capture file?"))
        let option = try Self.blectl("decode", "--frobnicate", Self.demo)
        #expect(option.status == 2)
        #expect(option.error.contains("unknown option '--frobnicate'"))
        let missing = try Self.blectl("decode", "/nonexistent/capture.btsnoop")
        #expect(missing.status == 1)
        #expect(missing.error.contains("/nonexistent/capture.btsnoop"))
        let notACapture = try Self.blectl("decode", Self.root.appendingPathComponent("Package.swift").path)
        #expect(notACapture.status == 1)
        #expect(!notACapture.error.isEmpty)
        let directory = try Self.blectl("decode", "/tmp")
        #expect(directory.status == 1)
        #expect(directory.error.contains("it is a directory"))
        let empty = FileManager.default.temporaryDirectory.appendingPathComponent("blectl-empty-\(getpid()).btsnoop")
        defer { try? FileManager.default.removeItem(at: empty) }
        try Data().write(to: empty)
        let emptyRun = try Self.blectl("decode", empty.path)
        #expect(emptyRun.status == 1)
        #expect(emptyRun.error.contains("the file is empty"))
        let help = try Self.blectl("decode", "--help")
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("usage: blectl decode FILE"))
        #expect(try Self.blectl("--version").output.hasPrefix("blectl "))
        let command = try Self.blectl("scan-the-moon")
        #expect(command.status == 2)
        #expect(command.error.contains("unknown command 'scan-the-moon'"))
    }

    @Test("decode runs on the main thread alone: while it waits for its capture on standard input, the process has one thread")
    func decodeStartsNoThreadPool() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try BlectlRun.executable())
        process.arguments = ["decode", "--no-summary", "-"]
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // Watch the process's threads while it blocks reading standard input (the concurrency
        // runtime's pool would have started by then, had main awaited before the decode).
        var most = 0
        for _ in 0..<40 {
            let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(process.processIdentifier)/task")) ?? []
            most = max(most, tasks.count)
            usleep(5_000)
        }
        input.fileHandleForWriting.write(try Data(contentsOf: URL(fileURLWithPath: Self.demo)))
        try input.fileHandleForWriting.close()
        let lines = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self).split(separator: "\n")
        process.waitUntilExit()
        #expect(most == 1)
        #expect(process.terminationStatus == 0)
        #expect(lines.count == 221)
    }
}
