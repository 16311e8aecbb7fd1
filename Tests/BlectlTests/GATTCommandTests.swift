import Foundation
import Testing
import BLECore
import GATT
@testable import BLE
@testable import blectl

/// The kernel-mode GATT commands as a user runs them where there is no radio (usage errors, the
/// kernel's answer), and their printing. The connections themselves run in the kernel lane.
@Suite("blectl gatt, read, write, subscribe")
struct GATTCommandTests {
    @Test("usage errors exit 2 before anything is opened, naming the mistake")
    func usage() throws {
        let cases: [([String], String)] = [
            (["read", "00:AA:01:00:00:00"], "expected 2 arguments, got 1"),
            (["write", "zz", "0x0003", "01"], "'zz' is not a device address"),
            (["write", "00:AA:01:00:00:00", "0x0003", "0g"], "'0g' is not hexadecimal octets"),
            (["read", "00:AA:01:00:00:00", "0x0000"], "'0x0000' is not a handle"),
            (["read", "00:AA:01:00:00:00", "battery"], "neither a handle (0x0003) nor a UUID"),
            (["subscribe", "00:AA:01:00:00:00", "0x0003"], "subscribe takes a characteristic UUID"),
            (["gatt", "00:AA:01:00:00:00", "--security", "max"], "--security takes low, medium or high"),
            (["gatt", "00:AA:01:00:00:00", "--frobnicate"], "unknown option '--frobnicate'"),
            (["read", "00:AA:01:00:00:00", "2A19", "--mtu", "5"], "--mtu takes octets, 23...517"),
            (["--hci", "x", "list"], "--hci takes an adapter index"),
            (["--hci", "65535", "list"], "--hci takes an adapter index, 0...65534"),      // HCI_DEV_NONE
            (["gatt", "00:AA:01:00:00:00", "--hci", "1"], "--hci goes before the command"),
            (["--bogus", "list"], "unknown option '--bogus' (before the command: --hci N, --no-power, --transport WORD, --capture FILE)"),
            (["--transport", "usb:1", "scan"], "--transport takes kernel:hciN, user:hciN, h4:/dev/ttyX[@BAUD][,rtscts], tcp:HOST:PORT or virtual"),
            (["--transport"], "--transport takes"),
            (["--capture", "/tmp/x.btsnoop", "gatt", "00:AA:01:00:00:00"], "--capture in kernel mode works with scan and serve"),
            (["help", "nosuch"], "unknown command 'nosuch'"),
        ]
        for (arguments, message) in cases {
            let run = try BlectlRun(arguments)
            #expect(run.status == 2, "\(arguments)")
            #expect(run.error.contains(message), "\(arguments): \(run.error)")
        }
        let help = try BlectlRun(["gatt", "--help"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("usage: blectl [--hci N] gatt ADDR"))
        #expect(help.output.contains("OPTIONS: [--random] [--security low|medium|high] [--timeout S] [--mtu OCTETS]"))
        let helpTopic = try BlectlRun(["help", "read"])
        #expect(helpTopic.status == 0)
        #expect(helpTopic.output == help.output, "blectl help read is blectl read --help")
    }

    @Test("a well-formed command reaches the kernel: here, its answer with the adapter named, exit 1")
    func kernelAnswer() throws {
        guard !FileManager.default.fileExists(atPath: "/sys/class/bluetooth") else { return }   // a kernel with Bluetooth: the lane's job
        let run = try BlectlRun(["--hci", "1", "gatt", "00:AA:01:00:00:00"])
        #expect(run.status == 1)
        #expect(run.error.hasPrefix("blectl gatt: reading hci1: this kernel has no Bluetooth"))
    }

    @Test("values with their text, notifications and indications as lines and JSON")
    func printing() throws {
        #expect(GATTTreeText.value(Array("LinuxBLE".utf8), handle: 8) == "0x0008: 4c696e7578424c45 \"LinuxBLE\"")
        #expect(GATTTreeText.value([0x64], handle: 3) == "0x0003: 64")
        #expect(GATTTreeText.value([], handle: 3) == "0x0003: (empty)")
        #expect(GATTTreeText.value([0x41, 0x42, 0x0a], handle: 3) == "0x0003: 41420a")    // a control character: no text
        #expect(GATTTreeText.line(ValueUpdate(value: Data([0x63]), kind: .notification), handle: 3) == "notification 0x0003 63")
        #expect(GATTTreeText.json(ValueUpdate(value: Data([1, 0]), kind: .indication), handle: 5, uuid: BluetoothUUID(0x2A37))
                == #"{"uuid":"2A37","handle":5,"kind":"indication","value":"0100"}"#)
        #expect(GATTTreeText.range(0x0001...0x0004) == "0x0001...0x0004")
    }
}

/// What `blectl gatt` prints after the tree when the peer bent the specification.
@Suite("blectl gatt: what it worked around")
struct GATTWorkaroundTextTests {
    @Test("each diagnostic is one line after the tree, naming the step, the problem and what was switched off")
    func workaroundLines() {
        let diagnostic = PeripheralDiagnostic(GATTClientDiagnostic(
            step: .clientSupportedFeaturesWrite,
            problem: .failed(.errorResponse(request: .writeRequest, handle: 0x000B, code: .writeNotPermitted)),
            consequence: .clientSupportedFeaturesNotWritten))
        #expect(GATTTreeText.workarounds([diagnostic]) == [
            "worked around: Client Supported Features write (Core v5.4, Vol 3, Part G, 7.2): Write Request handle 0x000b: "
                + "Write Not Permitted (0x03); Client Supported Features is not written on this connection",
        ])
        #expect(GATTTreeText.workarounds([]).isEmpty)
    }
}
