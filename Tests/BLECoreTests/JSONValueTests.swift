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

    @Test("non-finite doubles become null, which JSON can represent")
    func nonFinite() {
        #expect(JSONValue.double(.infinity).description == "null")
        #expect(JSONValue.double(.nan).description == "null")
    }
}
