import Testing
@testable import PDUScript

@Suite("PDU script parser")
struct PDUScriptParserTests {
    @Test("headers, steps, comments and patterns")
    func parse() throws {
        let script = try PDUScript(parsing: """
            # GATT/SR/GAR/BV-01-C: read a characteristic value
            test: GATT/SR/GAR/BV-01-C
            role: server
            database: small.json
            security: encrypted key-size 16

            send   0a 0300        # Read Request, handle 0x0003
            expect 0b ?? 42 ...   # Read Response
            trigger notify 0x0010 01 02
            expect-nothing
            result ok
            """, name: "GATT_SR_GAR_BV-01-C")
        #expect(script.testID == "GATT/SR/GAR/BV-01-C")
        #expect(script.role == .server)
        #expect(script.database == "small.json")
        #expect(script.security == "encrypted key-size 16")
        #expect(script.steps == [
            .send([0x0A, 0x03, 0x00], line: 7),
            .expect(PDUPattern(octets: [0x0B, nil, 0x42], allowsMore: true), line: 8),
            .trigger(name: "notify", arguments: ["0x0010", "01", "02"], line: 9),
            .expectNothing(line: 10),
            .result("ok", line: 11),
        ])
    }

    @Test("patterns match exact octets, ?? any octet, and ... any further octets")
    func patterns() {
        let exact = PDUPattern(octets: [0x0B, 0x41])
        #expect(exact.matches([0x0B, 0x41]))
        #expect(!exact.matches([0x0B, 0x41, 0x42]))
        #expect(!exact.matches([0x0B]))
        let loose = PDUPattern(octets: [0x0B, nil], allowsMore: true)
        #expect(loose.matches([0x0B, 0x99]))
        #expect(loose.matches([0x0B, 0x99, 0x01, 0x02]))
        #expect(!loose.matches([0x0C, 0x99]))
        #expect(loose.description == "0b ?? ...")
    }

    /// A script that does not parse, and the error it gives; shown on one line in the test log.
    struct BadScript: Sendable, CustomTestStringConvertible {
        var text: String
        var error: PDUScriptParseError
        init(_ text: String, _ error: PDUScriptParseError) {
            self.text = text
            self.error = error
        }
        var testDescription: String { text.split(separator: "\n", omittingEmptySubsequences: false).joined(separator: " / ") + " (line \(error.line))" }
    }

    @Test("errors name the line and what is wrong", arguments: [
        BadScript("role: server\nsend zz", PDUScriptParseError(line: 2, reason: "not a PDU in hexadecimal: zz")),
        BadScript("role: server\nfrobnicate 01", PDUScriptParseError(line: 2, reason: "unknown step frobnicate")),
        BadScript("role: peripheral", PDUScriptParseError(line: 1, reason: "role must be server or client, not peripheral")),
        BadScript("send 01", PDUScriptParseError(line: 1, reason: "the script has no role: header")),
        BadScript("role: server\nsend 01\nrole: client", PDUScriptParseError(line: 3, reason: "header role: after the first step")),
        BadScript("role: server\nexpect 01 ... 02", PDUScriptParseError(line: 2, reason: "... must come last")),
        BadScript("role: server\nresult ok", PDUScriptParseError(line: 2, reason: "result with no trigger before it")),
        BadScript("role: server\nmtu: 23", PDUScriptParseError(line: 2, reason: "unknown header mtu:")),
    ])
    func errors(_ bad: BadScript) {
        #expect(throws: bad.error) { _ = try PDUScript(parsing: bad.text, name: "bad") }
    }
}
