import Foundation
import Testing
import ATT
import BLECore
@testable import GATT

/// Loading databases from JSON (docs/gatt-database-json.md), writing them back, and the typed
/// errors with member paths.
@Suite("GATT database JSON")
struct JSONTests {
    /// Every database in Fixtures/gatt-databases/, read from the folder so that a new one is tested too.
    static let fixtures = DBTest.fixtureNames

    @Test("small.json: the attribute table it describes")
    func small() throws {
        let db = try DBTest.load("small.json")
        let ro = GATTPermissions.readOnly
        let expected: [DBTest.Row] = [
            // 0x0001 «Primary Service» 0x180F (Battery)
            .init(handle: 0x0001, type: DBTest.uuid(0x2800), permissions: ro, value: DBTest.hex("0f18")),
            // 0x0002 «Characteristic»: Read, Notify (0x12), value at 0x0003, 0x2A19 (Battery Level)
            .init(handle: 0x0002, type: DBTest.uuid(0x2803), permissions: ro, value: DBTest.hex("12 0300 192a")),
            // 0x0003 Battery Level: 100 %
            .init(handle: 0x0003, type: DBTest.uuid(0x2A19), permissions: ro, value: DBTest.hex("64")),
            // 0x0004 «Characteristic Presentation Format»: uint8, exponent 0, percentage (0x27AD), SIG, 0
            .init(handle: 0x0004, type: DBTest.uuid(0x2904), permissions: ro, value: DBTest.hex("04 00 ad27 01 0000")),
            // 0x0005 «Client Characteristic Configuration», added for Notify
            .init(handle: 0x0005, type: DBTest.uuid(0x2902), permissions: .readWrite, value: DBTest.hex("0000")),
            // 0x0006 «Primary Service» 0x180A (Device Information)
            .init(handle: 0x0006, type: DBTest.uuid(0x2800), permissions: ro, value: DBTest.hex("0a18")),
            // 0x0007 «Characteristic»: Read, value at 0x0008, 0x2A29 (Manufacturer Name String)
            .init(handle: 0x0007, type: DBTest.uuid(0x2803), permissions: ro, value: DBTest.hex("02 0800 292a")),
            // 0x0008 "LinuxBLE"
            .init(handle: 0x0008, type: DBTest.uuid(0x2A29), permissions: ro, value: Array("LinuxBLE".utf8)),
        ]
        #expect(DBTest.rows(db) == expected)
    }

    @Test("heart-rate-demo.json reproduces the capture's table handle for handle")
    func demo() throws {
        let db = try DBTest.load("heart-rate-demo.json")
        // The handles of Fixtures/captures/README.md, with the declarations between them.
        #expect(db.attributes.map(\.handle) == (0x0001...0x0029).map { $0 })
        #expect(db.services.map(\.handle) == [0x0001, 0x0006, 0x000E, 0x0016, 0x001A, 0x001F])
        #expect(db.services.map(\.endGroupHandle) == [0x0005, 0x000D, 0x0015, 0x0019, 0x001E, 0x0029])
        #expect(db.characteristics().map(\.valueHandle) == [0x0003, 0x0005, 0x0008, 0x000B, 0x000D, 0x0010, 0x0013,
                                                            0x0015, 0x0018, 0x001C, 0x001E, 0x0021, 0x0024, 0x0027])
        // Properties as the capture's Read By Type Responses declare them.
        #expect(db.characteristics().map(\.properties.rawValue) == [0x02, 0x02, 0x20, 0x0A, 0x02, 0x10, 0x02,
                                                                    0x08, 0x12, 0x02, 0x02, 0x02, 0x08, 0x20])
        // Descriptors as its Find Information Responses list them.
        let descriptors = db.characteristics().flatMap(\.descriptors).map { "\(String($0.handle, radix: 16)) \($0.type)" }
        #expect(descriptors == ["9 2902", "11 2902", "19 2902", "22 2901", "25 2901", "28 2901", "29 2902"])
        // The long value: 239 octets.
        #expect(db.attribute(at: 0x0021)?.value.fixedValue?.count == 239)
        #expect(db.attribute(at: 0x0005)?.value.fixedValue == DBTest.hex("4103"))
    }

    @Test("every fixture loads, writes, and loads back to the same attributes and hash", arguments: fixtures)
    func roundTrip(_ name: String) throws {
        let db = try DBTest.load(name)
        let text = try db.jsonText()
        let again = try GATTDatabase(jsonText: text)
        #expect(DBTest.rows(again) == DBTest.rows(db))
        #expect(again.databaseHash == db.databaseHash)
        #expect(again.services.map(\.id) == db.services.map(\.id))
        #expect(again.services.map(\.includes) == db.services.map(\.includes))
        // The written text is stable: writing the reloaded database gives the same text.
        #expect(try again.jsonText() == text)
    }

    @Test("annotated fixture: the JSON written for a small database")
    func writtenText() throws {
        let db = try GATTDatabase(services: [
            .primary(DBTest.uuid(0x180F), id: "battery", characteristics: [
                GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A19), properties: [.read, .notify],
                                             permissions: GATTPermissions(read: .encrypted), value: .fixed([0x57]),
                                             descriptors: [.userDescription("Level")]),
            ]),
        ])
        // Every handle explicit; the CCCD the builder added is listed; default permissions left out.
        #expect(try db.jsonText() == """
            {
              "services": [
                {
                  "id": "battery",
                  "uuid": "180F",
                  "handle": "0x0001",
                  "endGroupHandle": "0x0005",
                  "characteristics": [
                    {
                      "uuid": "2A19",
                      "handle": "0x0002",
                      "valueHandle": "0x0003",
                      "properties": ["read", "notify"],
                      "permissions": {
                        "read": {
                          "encryption": true
                        },
                        "write": false
                      },
                      "value": {
                        "hex": "57"
                      },
                      "descriptors": [
                        {
                          "type": "userDescription",
                          "text": "Level",
                          "handle": "0x0004"
                        },
                        {
                          "type": "cccd",
                          "handle": "0x0005"
                        }
                      ]
                    }
                  ]
                }
              ]
            }

            """)
    }

    @Test("handlers: named in the JSON, given to the loader, written back by name")
    func handlers() async throws {
        let counter = GATTValueHandlers(read: { offset, _ in [UInt8(truncatingIfNeeded: offset)] }, write: { _, _, _ in })
        let json = """
            { "services": [ { "uuid": "180F", "characteristics": [
                { "uuid": "2A19", "properties": ["read", "write"], "handler": "counter" },
                { "uuid": "2A1A", "properties": ["read"], "descriptors": [ { "uuid": "2906", "handler": "counter" } ] }
            ] } ] }
            """
        let db = try GATTDatabase(jsonText: json, handlers: ["counter": counter])
        let value = try #require(db.attribute(at: 0x0003)?.value.handlers)
        #expect(value.name == "counter")
        #expect(try await value.read?(9, GATTPeer(connectionID: 1)) == [9])
        // The raw descriptor's permissions come from its handlers: read and write.
        #expect(db.attribute(at: 0x0006)?.permissions == .readWrite)
        let text = try db.jsonText()
        #expect(text.contains("\"handler\": \"counter\""))
        #expect(try DBTest.rows(GATTDatabase(jsonText: text, handlers: ["counter": counter])) == DBTest.rows(db))

        DBTest.expectJSONError(.unknownHandler(path: "services[0].characteristics[0].handler", name: "counter"), json)
        let anonymous = try GATTDatabase(services: [.primary(DBTest.uuid(0x180F), characteristics: [
            GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A19), properties: [.read], value: .dynamic(GATTValueHandlers(read: { _, _ in [] }))),
        ])])
        #expect(throws: GATTDatabaseJSONError.notRepresentable(path: "services[0].characteristics[0].value",
                                                               reason: "dynamic handlers without a name have no JSON form")) {
            try anonymous.jsonText()
        }
    }

    @Test("the forms the format accepts: handles, UUIDs, bit fields, includes, access objects")
    func forms() throws {
        let json = """
            {
              "comment": "anything",
              "services": [
                { "uuid": "0x180d", "handle": 16, "includes": [1, { "service": "b", "handle": "0X0013" }],
                  "characteristics": [
                    { "uuid": "a5f10002-6c1b-4b8e-9e3a-4c696e757842", "properties": 10, "extendedProperties": 32769,
                      "permissions": { "read": { "authentication": true, "authorization": true, "minimumKeySize": 7 }, "write": true },
                      "value": { "hex": "01:02 03-04" } },
                    { "uuid": "A5F100026C1B4B8E9E3A4C696E757842", "properties": ["read"], "value": { "text": "é" } }
                  ] },
                { "id": "b", "type": "secondary", "uuid": "0000180F" }
              ]
            }
            """
        let db = try GATTDatabase(jsonText: json)
        let hr = db.services[0]
        let c = hr.characteristics[0]
        #expect(hr.handle == 0x0010)
        #expect(hr.includes.map(\.handle) == [0x0011, 0x0013])
        #expect(c.declarationHandle == 0x0014)
        #expect(c.properties.rawValue == 0x8A)   // Read, Write, and Extended Properties from the extended bits
        #expect(c.extendedProperties.rawValue == 0x8001)
        #expect(c.permissions.read == GATTAccess(authentication: true, authorization: true, minimumKeySize: 7))
        #expect(c.permissions.write == .open)
        #expect(c.value.fixedValue == [1, 2, 3, 4])
        #expect(hr.characteristics[1].value.fixedValue == [0xC3, 0xA9])
        #expect(hr.characteristics[1].uuid == c.uuid)
        #expect(db.services[1].uuid.width == .bits128)
        // A reserved extended bit is written as a number, so it survives.
        #expect(try db.jsonText().contains("\"extendedProperties\": 32769"))
    }

    @Test("the include forms resolve to the right handles")
    func includeForms() throws {
        let db = try GATTDatabase(jsonText: """
            { "services": [
                { "uuid": "180D", "includes": [1, { "service": "b", "handle": "0x0005" }] },
                { "id": "b", "type": "secondary", "uuid": "180F", "handle": 8 }
            ] }
            """)
        #expect(db.services[0].includes.map(\.handle) == [0x0002, 0x0005])
        #expect(db.services[0].includes.map(\.serviceHandle) == [0x0008, 0x0008])
    }

    @Test("malformed JSON and wrong shapes, named by path")
    func shapeErrors() {
        DBTest.expectJSONError(.wrongType(path: "(top level)", expected: "an object"), "[]")
        DBTest.expectJSONError(.missingMember(path: "services"), "{}")
        DBTest.expectJSONError(.unknownMember(path: "service"), #"{"services": [], "service": []}"#)
        DBTest.expectJSONError(.wrongType(path: "services", expected: "an array"), #"{"services": {}}"#)
        DBTest.expectJSONError(.wrongType(path: "services[0]", expected: "an object"), #"{"services": ["180D"]}"#)
        DBTest.expectJSONError(.missingMember(path: "services[0].uuid"), #"{"services": [{}]}"#)
        DBTest.expectJSONError(.wrongType(path: "services[0].uuid", expected: "a string"), #"{"services": [{"uuid": 6157}]}"#)
        DBTest.expectJSONError(.unknownMember(path: "services[0].characteristic"),
                               #"{"services": [{"uuid": "180D", "characteristic": []}]}"#)
        DBTest.expectJSONError(.invalidValue(path: "services[0].type", reason: "\"tertiary\"; write \"primary\" or \"secondary\""),
                               #"{"services": [{"uuid": "180D", "type": "tertiary"}]}"#)
        DBTest.expectJSONError(.wrongType(path: "services[0].includes[0]", expected: "a service id (a string) or position (an integer)"),
                               #"{"services": [{"uuid": "180D", "includes": [true]}]}"#)
        DBTest.expectJSONError(.missingMember(path: "services[0].includes[0].service"),
                               #"{"services": [{"uuid": "180D", "includes": [{"handle": 2}]}]}"#)
    }

    @Test("bad values, named by path")
    func valueErrors() {
        func characteristic(_ members: String) -> String {
            #"{"services": [{"uuid": "180D"}, {"uuid": "180F"}, {"uuid": "180A", "characteristics": [{"uuid": "2A29", "properties": ["read"], "#
                + members + "}]}]}"
        }
        let path = "services[2].characteristics[0]"
        DBTest.expectJSONError(.invalidValue(path: "services[2].characteristics[0].uuid",
                                             reason: "\"2A2\" is not a UUID; write \"180D\", \"0000180D\" or 128 bits as 8-4-4-4-12 hexadecimal digits"),
                               #"{"services": [{"uuid": "180D"}, {"uuid": "180F"}, {"uuid": "180A", "characteristics": [{"uuid": "2A2"}]}]}"#)
        DBTest.expectJSONError(.invalidValue(path: path + ".handle", reason: "\"12\" is not a handle; write 0x0001...0xffff or an integer"),
                               characteristic(#""handle": "12""#))
        DBTest.expectJSONError(.invalidValue(path: path + ".valueHandle", reason: "65536 is outside 0...65535"),
                               characteristic(#""valueHandle": 65536"#))
        DBTest.expectJSONError(.wrongType(path: path + ".handle", expected: "a handle (an integer or a \"0x...\" string)"),
                               characteristic(#""handle": 1.5"#))
        DBTest.expectJSONError(.invalidValue(path: path + ".extendedProperties[0]", reason: "unknown property \"reliable\""),
                               characteristic(#""extendedProperties": ["reliable"]"#))
        DBTest.expectJSONError(.invalidValue(path: path + ".value.hex", reason: "\"abc\" is not an even number of hexadecimal digits"),
                               characteristic(#""value": {"hex": "abc"}"#))
        DBTest.expectJSONError(.invalidValue(path: path + ".value", reason: "give hex or text, not both"),
                               characteristic(#""value": {"hex": "00", "text": "a"}"#))
        DBTest.expectJSONError(.missingMember(path: path + ".value.hex"), characteristic(#""value": {}"#))
        DBTest.expectJSONError(.unknownMember(path: path + ".value.utf8"), characteristic(#""value": {"utf8": "a"}"#))
        DBTest.expectJSONError(.invalidValue(path: path + ".handler", reason: "give a value or a handler, not both"),
                               characteristic(#""value": {"hex": "00"}, "handler": "h""#))
        DBTest.expectJSONError(.wrongType(path: path + ".permissions.read", expected: "true, false or an object of requirements"),
                               characteristic(#""permissions": {"read": "open"}"#))
        DBTest.expectJSONError(.wrongType(path: path + ".permissions.write.encryption", expected: "true or false"),
                               characteristic(#""permissions": {"write": {"encryption": 1}}"#))
        DBTest.expectJSONError(.unknownMember(path: path + ".permissions.write.keySize"),
                               characteristic(#""permissions": {"write": {"keySize": 16}}"#))
        DBTest.expectJSONError(.wrongType(path: path + ".properties", expected: "an array"),
                               #"{"services": [{"uuid": "180D"}, {"uuid": "180F"}, {"uuid": "180A", "characteristics": [{"uuid": "2A29", "properties": "read"}]}]}"#)
        DBTest.expectJSONError(.invalidValue(path: path + ".properties", reason: "256 is outside 0...255"),
                               #"{"services": [{"uuid": "180D"}, {"uuid": "180F"}, {"uuid": "180A", "characteristics": [{"uuid": "2A29", "properties": 256}]}]}"#)
    }

    @Test("bad descriptors, named by path")
    func descriptorErrors() {
        func descriptor(_ members: String) -> String {
            #"{"services": [{"uuid": "180F", "characteristics": [{"uuid": "2A19", "properties": ["read"], "descriptors": [{"type": "cccd"}, {"#
                + members + "}]}]}]}"
        }
        let path = "services[0].characteristics[0].descriptors[1]"
        DBTest.expectJSONError(.missingMember(path: path + ".type"), descriptor(#""handle": 9"#))
        DBTest.expectJSONError(.invalidValue(path: path + ".uuid", reason: "give a type or a uuid, not both"),
                               descriptor(#""type": "cccd", "uuid": "2902""#))
        DBTest.expectJSONError(.invalidValue(path: path + ".type", reason: "\"clientConfiguration\"; write one of cccd, sccd, extendedProperties, userDescription, presentationFormat, aggregateFormat, or a uuid instead"),
                               descriptor(#""type": "clientConfiguration""#))
        DBTest.expectJSONError(.missingMember(path: path + ".text"), descriptor(#""type": "userDescription""#))
        DBTest.expectJSONError(.unknownMember(path: path + ".text"), descriptor(#""type": "sccd", "text": "x""#))
        DBTest.expectJSONError(.unknownMember(path: path + ".value"), descriptor(#""type": "userDescription", "text": "x", "value": {"hex": "00"}"#))
        DBTest.expectJSONError(.missingMember(path: path + ".format"), descriptor(#""type": "presentationFormat""#))
        DBTest.expectJSONError(.invalidValue(path: path + ".format", reason: "unknown format \"u8\"; write a Short Name such as \"uint8\", or its number"),
                               descriptor(#""type": "presentationFormat", "format": "u8""#))
        DBTest.expectJSONError(.invalidValue(path: path + ".exponent", reason: "128 is outside -128...127"),
                               descriptor(#""type": "presentationFormat", "format": "uint8", "exponent": 128"#))
        DBTest.expectJSONError(.invalidValue(path: path + ".unit", reason: "a unit is a 16-bit UUID such as \"27AD\""),
                               descriptor(#""type": "presentationFormat", "format": 4, "unit": "000027AD""#))
        // A second CCCD is the builder's error, by the same path.
        DBTest.expectJSONError(.database(.duplicateDescriptor(type: DBTest.uuid(0x2902), path: path)), descriptor(#""type": "cccd""#))
        DBTest.expectJSONError(.database(.reservedDescriptorType(type: DBTest.uuid(0x2902), path: path)), descriptor(#""uuid": "2902""#))
    }

    @Test("the builder's errors keep the JSON paths")
    func databaseErrors() {
        DBTest.expectJSONError(.database(.includedServiceNotFound(reference: "battery", path: "services[2].includes[0]")),
                               #"{"services": [{"uuid": "1800"}, {"uuid": "1801"}, {"uuid": "180D", "includes": ["battery"]}]}"#)
        DBTest.expectJSONError(.database(.duplicateHandle(handle: 3, path: "services[1].handle", otherPath: "services[0].characteristics[0].valueHandle")),
                               #"{"services": [{"uuid": "180F", "characteristics": [{"uuid": "2A19", "properties": ["read"]}]}, {"uuid": "180A", "handle": 3}]}"#)
        DBTest.expectJSONError(.database(.reservedHandle(path: "services[0].handle")), #"{"services": [{"uuid": "180F", "handle": 0}]}"#)
        DBTest.expectJSONError(.database(.invalidPermissions(path: "services[0].characteristics[0].permissions",
                                                             reason: "minimum key size 5 is outside 7...16 octets")),
                               #"{"services": [{"uuid": "180F", "characteristics": [{"uuid": "2A19", "permissions": {"read": {"minimumKeySize": 5}}}]}]}"#)
    }

    /// The syntax error a text gives, as the loader describes it.
    static func syntaxError(_ text: String) -> String? {
        do {
            _ = try GATTDatabase(jsonText: text)
            return nil
        } catch {
            guard case .syntax = error else { return "not a syntax error: \(error)" }
            return error.description
        }
    }

    @Test("text that is not strict JSON names the line and column and what was expected there")
    func syntaxErrors() {
        let missingComma = """
            {
              "services": [
                {
                  "uuid": "180F"
                  "characteristics": []
                }
              ]
            }
            """
        #expect(Self.syntaxError(missingComma) == "line 5, column 7: expected ',' or '}' after an object member, not '\"'")
        #expect(Self.syntaxError(#"{"services": [}"#) == "line 1, column 15: expected a value or ']', not '}'")
        // What Foundation let through: a trailing comma, a duplicate member (it kept the first), a comment.
        #expect(Self.syntaxError("{\n  \"services\": [\n    { \"uuid\": \"180F\" },\n  ]\n}")
                == "line 4, column 3: expected a value after ','; JSON allows no trailing comma")
        #expect(Self.syntaxError(#"{"services": [{"uuid": "180F", "uuid": "180D"}]}"#)
                == #"line 1, column 32: duplicate member "uuid" in one object (the first is at line 1, column 16)"#)
        #expect(Self.syntaxError("{\"services\": [] // none yet\n}")
                == "line 1, column 17: expected ',' or '}' after an object member; JSON has no comments")
        #expect(Self.syntaxError("") == "line 1, column 1: expected a value, but the text ends")
        // The error is the reader's, position and all.
        #expect(throws: GATTDatabaseJSONError.syntax(JSONSyntaxError(position: JSONSourcePosition(line: 1, column: 2, offset: 1),
                                                                     reason: "a number may not start with 0 followed by more digits"))) {
            try GATTDatabase(jsonText: "[01]")
        }
    }

    @Test("a file that is not there, and the one-line descriptions")
    func files() throws {
        #expect {
            try GATTDatabase(jsonFile: DBTest.fixtures + "/no-such-file.json")
        } throws: { error in
            guard case GATTDatabaseJSONError.unreadableFile(let path, _) = error else { return false }
            return path.hasSuffix("no-such-file.json")
        }
        #expect(GATTDatabaseJSONError.missingMember(path: "services[0].uuid").description == "services[0].uuid: missing")
        #expect(GATTDatabaseJSONError.database(.reservedHandle(path: "services[0].handle")).description
                == "services[0].handle: handle 0x0000 is reserved")
    }
}
