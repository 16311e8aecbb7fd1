import Foundation
import Testing

/// `blectl list` as a user runs it, on whatever kernel runs the tests.
@Suite("blectl list")
struct ListCommandTests {
    @Test("adapters one per line, or exit 1 with the reason (a kernel without Bluetooth says so)")
    func list() throws {
        let run = try BlectlRun(["list"])
        if run.status == 0 {
            #expect(run.lines.allSatisfy { $0.hasPrefix("hci") })
        } else {
            #expect(run.status == 1)
            #expect(run.output.isEmpty)
            #expect(run.error.hasPrefix("blectl list: listing Bluetooth adapters: "))
            if FileManager.default.fileExists(atPath: "/sys/class/bluetooth") == false {
                #expect(run.error.contains("this kernel has no Bluetooth"))
            }
        }
    }

    @Test("an argument is a usage error; --help is the usage")
    func usage() throws {
        let wrong = try BlectlRun(["list", "hci0"])
        #expect(wrong.status == 2)
        #expect(wrong.error.contains("unknown argument 'hci0'"))
        let help = try BlectlRun(["list", "--help"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("usage: blectl list"))
    }
}

/// `blectl power` as a user runs it.
@Suite("blectl power")
struct PowerCommandTests {
    @Test("on or off, else a usage error; here the kernel's answer names the control channel")
    func power() throws {
        let missing = try BlectlRun(["power"])
        #expect(missing.status == 2)
        #expect(missing.error.contains("say on or off"))
        let wrong = try BlectlRun(["--hci", "1", "power", "up"])
        #expect(wrong.status == 2)
        guard !FileManager.default.fileExists(atPath: "/sys/class/bluetooth") else { return }   // the kernel lane's job
        let on = try BlectlRun(["power", "on"])
        #expect(on.status == 1)
        #expect(on.error.hasPrefix("blectl power: opening the HCI control channel: this kernel has no Bluetooth"))
    }
}
