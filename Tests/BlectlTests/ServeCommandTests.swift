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

    @Test("a line that is not hexadecimal is reported and skipped; the rest is served")
    func badLines() throws {
        let run = try Self.serve(Self.small, "zz\n0a 0300\n\n   \n")
        #expect(run.status == 0)
        #expect(run.lines == ["0b64"])
        #expect(run.error.contains("not a PDU in hexadecimal: zz"))
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
