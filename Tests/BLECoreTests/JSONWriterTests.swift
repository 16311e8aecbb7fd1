import Testing
import BLECore

@Suite("JSONWriter")
struct JSONWriterTests {
    @Test("members and elements get commas between them, in nested and empty containers too")
    func commas() throws {
        var json = JSONWriter()
        json.object {
            $0.member("a", 1)
            $0.array("b") {
                $0.value(1)
                $0.object { $0.member("c", true) }
                $0.array { _ in }
                $0.null()
            }
            $0.object("d") { _ in }
            $0.key("e")
            $0.value(0.5)
        }
        let text = json.output.string
        #expect(text == #"{"a":1,"b":[1,{"c":true},[],null],"d":{},"e":0.5}"#)
        #expect(try JSONReader().value(parsing: text) == .object([
            ("a", .int(1)), ("b", .array([.int(1), .object([("c", .bool(true))]), .array([]), .null])),
            ("d", .object([])), ("e", .double(0.5)),
        ]))
    }

    @Test("a tree is written as the same tokens written one by one")
    func treeMatchesTokens() {
        let tree = JSONValue.object([("list", .array([.string("x"), .int(-3), .object([("k", .null)])])), ("ok", .bool(false))])
        var tokens = JSONWriter()
        tokens.object {
            $0.array("list") {
                $0.value("x")
                $0.value(-3)
                $0.object { $0.key("k"); $0.null() }
            }
            $0.member("ok", false)
        }
        var fromTree = JSONWriter()
        fromTree.value(tree)
        #expect(fromTree.output.string == tokens.output.string)
        #expect(tree.description == tokens.output.string)
    }

    @Test("text a body writes is escaped only where it must be, and the text around it is kept")
    func stringValueEscapes() throws {
        var json = JSONWriter()
        json.array {
            $0.stringValue { $0.write("plain é") }
            $0.stringValue { $0.write("a\"b\\c\n\u{1B}") }
            $0.stringValue { _ in }
            $0.value("after")
        }
        let text = json.output.string
        #expect(text == "[\"plain é\",\"a\\\"b\\\\c\\n\\u001b\",\"\",\"after\"]")
        #expect(try JSONReader().value(parsing: text) == .array([.string("plain é"), .string("a\"b\\c\n\u{1B}"), .string(""), .string("after")]))
    }

    @Test("keys given as strings are escaped; octets are written as lower-case hexadecimal")
    func keysAndHex() throws {
        var json = JSONWriter()
        json.object {
            $0.key(escaping: "quote\"key")
            $0.hexValue([0x0A, 0xFF, 0x00])
            $0.key("empty")
            $0.hexValue([])
        }
        let text = json.output.string
        #expect(text == #"{"quote\"key":"0aff00","empty":""}"#)
        #expect(try JSONReader().value(parsing: text) == .object([("quote\"key", .string("0aff00")), ("empty", .string(""))]))
    }

    @Test("a writer emptied for the next record starts its object without a comma")
    func reuseAfterRemoveAll() {
        var json = JSONWriter()
        json.object { $0.member("n", 1) }
        json.removeAll()
        json.object { $0.member("n", 2) }
        #expect(json.output.string == #"{"n":2}"#)
    }

    @Test("numbers JSON cannot hold are written as null")
    func nonFiniteNumbers() {
        var json = JSONWriter()
        json.array {
            $0.value(Double.infinity)
            $0.value(Double.nan)
            $0.value(Int.min)
        }
        #expect(json.output.string == "[null,null,\(Int.min)]")
    }
}
