import Foundation
import Testing

/// `blectl serve --bearer stdio` as a user runs it: ATT PDUs in hexadecimal in, the server's PDUs out.
@Suite("blectl serve")
struct ServeCommandTests {
    static let small = BlectlRun.root.appendingPathComponent("Fixtures/gatt-databases/small.json").path
    static let reference = BlectlRun.root.appendingPathComponent("Fixtures/gatt-databases/reference.json").path

    static func serve(_ database: String, _ input: String, _ options: String...) throws -> BlectlRun {
        try BlectlRun(["serve", "--db", database, "--bearer", "stdio"] + options, input: input)
    }

    @Test("one response line per request, in order; commands get none; the process ends with its input")
    func answers() throws {
        let run = try Self.serve(Self.small, """
        # discover the primary services (Core v5.4, Vol 3, Part G, 4.4.1)
        10 0100 ffff 0028
        0a 0300
        52 0300 01
        0a 0000
        12 0300 01
        20 0100
        """)   // the last line has no newline: it still counts
        #expect(run.status == 0)
        #expect(run.error.isEmpty)
        #expect(run.lines == [
            "1106010005000f18060008000a1809000d000018",   // three services fit ATT_MTU 23
            "0b64",                                       // Battery Level 100 %
            // 52: Write Command to a read-only value, no answer (Part F, 3.4.5.3)
            "010a000001",                                 // handle 0x0000: Invalid Handle
            "0112030003",                                 // Write Request to a read-only value: Write Not Permitted
            "0120000004",                                 // Read Multiple Variable with one handle: Invalid PDU
        ])
    }

    @Test("ATT_MTU starts at 23 and follows the exchange (Part F, 3.4.2)")
    func mtu() throws {
        // Device Name (0x000B) is "LinuxBLE" here; set a name longer than 22 octets to see the cut.
        let name = String(repeating: "N", count: 40)
        let before = try BlectlRun(["serve", "--db", Self.small, "--bearer", "stdio", "--name", name], input: "0a 0b00\n")
        #expect(before.lines == [Substring("0b" + String(repeating: "4e", count: 22))])
        let after = try BlectlRun(["serve", "--db", Self.small, "--bearer", "stdio", "--name", name],
                                  input: "02 4000\n0a 0b00\n")
        #expect(after.lines == ["030502", Substring("0b" + String(repeating: "4e", count: 40))])
    }

    @Test("--security: what the link offers decides Insufficient Authentication against the value")
    func security() throws {
        // Read By Type for A5F20008-…, whose value needs encryption (Part C, 10.3.1).
        let request = "08 0100 ffff 4278756e694c3a9e8e4b1b6c0800f2a5\n"
        let plain = try Self.serve(Self.reference, request)
        #expect(plain.lines == ["0108420005"])
        let encrypted = try Self.serve(Self.reference, request, "--security", "encrypted")
        #expect(encrypted.lines == ["0903420001"])
        // Kernel mode's words mean the same here: medium is encrypted, low is none.
        #expect(try Self.serve(Self.reference, request, "--security", "medium").lines == ["0903420001"])
        #expect(try Self.serve(Self.reference, request, "--security", "low").lines == ["0108420005"])
    }

    @Test("a line that is not hexadecimal is reported with its number and why, skipped, and makes the exit status 1")
    func badLines() throws {
        let input = "zz\n0a 0300\n0a 030\n\n   \n# a comment\n0a 0300\n"
        for options in [[], ["--keep-going"]] {
            let run = try BlectlRun(["serve", "--db", Self.small, "--bearer", "stdio"] + options, input: input)
            #expect(run.status == 1)
            #expect(run.lines == ["0b64", "0b64"])     // lines 2 and 7 are served
            #expect(run.error == """
                blectl serve: line 1: not a PDU in hexadecimal ('z' at column 1 is not a hexadecimal digit), skipped: zz
                blectl serve: line 3: not a PDU in hexadecimal (5 hexadecimal digits, an odd number: the last octet lacks its second digit), skipped: 0a 030
                blectl serve: 2 lines of standard input were not PDUs in hexadecimal

                """)
        }
        // A last line without a newline has its number too; a good run still exits 0.
        let last = try Self.serve(Self.small, "0a 0300\r\n0a 0g")
        #expect(last.status == 1)
        #expect(last.error.hasPrefix("blectl serve: line 2: not a PDU in hexadecimal ('g' at column 5 is not a hexadecimal digit), skipped: 0a 0g\n"))
        #expect(try Self.serve(Self.small, "0a 0300\r\n").status == 0)
    }

    @Test("--strict: input stops at the first bad line, what came before is answered, exit status 1")
    func strict() throws {
        let run = try Self.serve(Self.small, "0a 0300\n0a 03 00 0\n0a 0300\nzz\n", "--strict")
        #expect(run.status == 1)
        #expect(run.lines == ["0b64"])
        #expect(run.error == "blectl serve: line 2: not a PDU in hexadecimal (7 hexadecimal digits, an odd number: the last octet "
                + "lacks its second digit): 0a 03 00 0; reading no further (--strict)\n")
        let split = try Self.serve(Self.small, "0 a\n", "--strict")
        #expect(split.status == 1)
        #expect(split.error.contains("(a space at column 2 splits an octet between its two digits)"))
        // Kernel mode reads no lines: the options are a usage error there.
        let kernel = try BlectlRun(["serve", "--db", Self.small, "--strict"])
        #expect(kernel.status == 2)
        #expect(kernel.error.hasPrefix("blectl serve: --keep-going and --strict are for --bearer stdio's input lines"))
    }

    @Test("a write to standard output that fails (a full disk, a closed pipe) ends serve with exit status 1 and the reason")
    func outputFailure() throws {
        let full = try BlectlRun(["serve", "--db", Self.small, "--bearer", "stdio"], input: "0a 0300\n0a 0300\n", output: .file("/dev/full"))
        #expect(full.status == 1)
        #expect(full.error == "blectl serve: writing the output failed: No space left on device\n")
        let closed = try BlectlRun(["serve", "--db", Self.small, "--bearer", "stdio"], input: "0a 0300\n", output: .closedPipe)
        #expect(closed.status == 1)
        #expect(closed.error == "blectl serve: writing the output failed: Broken pipe\n")
        // Commands get no answer, so nothing is written and nothing fails.
        let quiet = try BlectlRun(["serve", "--db", Self.small, "--bearer", "stdio"], input: "52 0300 01\n", output: .file("/dev/full"))
        #expect(quiet.status == 0)
        #expect(quiet.error.isEmpty)
    }

    @Test("usage errors exit 2, a database that does not load exits 1, each with a message")
    func errors() throws {
        let noDatabase = try BlectlRun(["serve", "--bearer", "stdio"], input: "")
        #expect(noDatabase.status == 2)
        #expect(noDatabase.error.contains("--db FILE.json"))
        let socket = try BlectlRun(["serve", "--db", Self.small, "--bearer", "l2cap"], input: "")
        #expect(socket.status == 2)
        #expect(socket.error.contains("--bearer takes stdio (or leave it out for kernel mode)"))
        let security = try BlectlRun(["serve", "--db", Self.small, "--bearer", "stdio", "--security", "key-size 3"], input: "")
        #expect(security.status == 2)
        #expect(security.error.contains("key-size"))
        let missing = try BlectlRun(["serve", "--db", "/nonexistent.json", "--bearer", "stdio"], input: "")
        #expect(missing.status == 1)
        #expect(missing.error == "blectl serve: /nonexistent.json: No such file or directory\n")
        let manufacturer = try BlectlRun(["serve", "--db", Self.small, "--bearer", "stdio", "--manufacturer", "1:02"], input: "")
        #expect(manufacturer.status == 2)
        #expect(manufacturer.error.hasPrefix("blectl serve: --manufacturer is kernel mode's (no --bearer)"))
        let notJSON = try BlectlRun(["serve", "--db", BlectlRun.root.appendingPathComponent("Package.swift").path,
                                     "--bearer", "stdio"], input: "")
        #expect(notJSON.status == 1)
        #expect(notJSON.error.hasSuffix("/Package.swift: line 1, column 1: expected a value; JSON has no comments\n"))
        let help = try BlectlRun(["serve", "--help"])
        #expect(help.status == 0)
        #expect(help.output.hasPrefix("usage: blectl [--hci N] serve --db FILE.json"))
    }
}
