import Testing
import BLECore

@Suite("JSONValue")
struct JSONValueTests {
    @Test("objects keep member order; strings are escaped per RFC 8259")
    func text() {
        let v = JSONValue.object([
            ("index", .int(3)), ("name", .string("a\"b\\c\n\u{01}é")), ("ok", .bool(true)),
            ("list", .array([.null, .double(1.5)])),
        ])
        #expect(v.description == #"{"index":3,"name":"a\"b\\c\n\u0001é","ok":true,"list":[null,1.5]}"#)
    }

    @Test("a string with nothing to escape is written as it is, multi-octet characters and DEL included")
    func plainStrings() {
        #expect(JSONValue.string("").description == #""""#)
        #expect(JSONValue.string("Heart Rate").description == #""Heart Rate""#)
        #expect(JSONValue.string("é\u{7F}🫀e\u{301}").description == "\"é\u{7F}🫀e\u{301}\"")
    }

    @Test("escapes at the ends, side by side and before a combining mark are written and read back")
    func escapesRoundTrip() throws {
        let strings = ["\"", "\\", "\n\r\t", "\u{0}\u{1F}", "\"\u{301}", "a\"", "\"a", "name\u{1}\u{7F}é\\"]
        #expect(JSONValue.string("\"\u{301}").description == "\"\\\"\u{301}\"")
        #expect(JSONValue.string("\u{0}\u{1F}").description == #""\u0000\u001f""#)
        for string in strings {
            let value = JSONValue.array([.string(string), .object([(string, .int(1))])])
            #expect(try JSONReader().value(parsing: value.description) == value, "\(string.unicodeScalars.map(\.value))")
        }
    }

    @Test("non-finite doubles become null, which JSON can represent")
    func nonFinite() {
        #expect(JSONValue.double(.infinity).description == "null")
        #expect(JSONValue.double(.nan).description == "null")
    }
}
