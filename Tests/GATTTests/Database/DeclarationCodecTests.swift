import Testing
import BLECore
@testable import GATT

/// The value codecs of the declarations and descriptors (Core v5.4, Vol 3, Part G, 3.1-3.3.3),
/// each with an annotated fixture, the round trips, and every malformed length.
@Suite("Declaration and descriptor values (Part G, 3)")
struct DeclarationCodecTests {
    /// Expects `value` to fail to decode with `T` with exactly `error`.
    func expectFailure<T>(_ error: BLEDecodingError, _ bytes: [UInt8], _ decode: ([UInt8]) throws(BLEDecodingError) -> T,
                          sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(throws: error, sourceLocation: sourceLocation) { _ = try decode(bytes) }
    }

    // MARK: Service declaration

    @Test("service declaration: 16- and 128-bit fixtures, round trip")
    func serviceDeclaration() throws {
        // «Primary Service» value: 0x180D (Heart Rate), least significant octet first
        let short = try GATTServiceDeclaration(decoding: DBTest.hex("0d18"))
        #expect(short.uuid == DBTest.uuid(0x180D))
        #expect(short.uuid.width == .bits16)
        #expect(short.encoded == DBTest.hex("0d18"))

        // «Primary Service» value: A5F10001-6C1B-4B8E-9E3A-4C696E757842 (the demo's vendor service)
        let fixture = DBTest.hex("4278756e694c3a9e8e4b1b6c0100f1a5")
        let long = try GATTServiceDeclaration(decoding: fixture)
        #expect(long.uuid == DBTest.uuid("A5F10001-6C1B-4B8E-9E3A-4C696E757842"))
        #expect(long.encoded == fixture)
        #expect(try GATTServiceDeclaration(decoding: long.encoded) == long)

        // A 32-bit UUID is sent in 128 bits.
        let widened = GATTServiceDeclaration(uuid: BluetoothUUID(uuid32: 0x1234_5678)).encoded
        #expect(widened == DBTest.hex("fb349b5f80000080 0010000078563412"))
        #expect(try GATTServiceDeclaration(decoding: widened).uuid == BluetoothUUID(uuid32: 0x1234_5678))
    }

    @Test("service declaration: every other length fails")
    func serviceDeclarationMalformed() {
        for length in 0...17 where length != 2 && length != 16 {
            let bytes = [UInt8](repeating: 0xAB, count: length)
            let error: BLEDecodingError = length < 2
                ? .truncated(field: "Service UUID", offset: 0, needed: 2, available: length)
                : .invalidValue(field: "Service UUID", offset: 0,
                                reason: "\(length) octets; a 16-bit (2-octet) or 128-bit (16-octet) UUID is required")
            expectFailure(error, bytes) { (b: [UInt8]) throws(BLEDecodingError) in try GATTServiceDeclaration(decoding: b) }
        }
    }

    // MARK: Include declaration

    @Test("include declaration: fixture with a 16-bit UUID, round trip")
    func includeDeclaration() throws {
        // «Include» value (Appendix B, handle 0x000F):
        //   Included Service Attribute Handle: 0x0014
        //   End Group Handle: 0x0016
        //   Service UUID: 0x180F (Battery)
        let fixture = DBTest.hex("1400 1600 0f18")
        let include = try GATTIncludeDeclaration(decoding: fixture)
        #expect(include.includedServiceHandle == 0x0014)
        #expect(include.endGroupHandle == 0x0016)
        #expect(include.serviceUUID == DBTest.uuid(0x180F))
        #expect(include.encoded == fixture)
        #expect(try GATTIncludeDeclaration(decoding: include.encoded) == include)
    }

    @Test("include declaration: a 128-bit service has no Service UUID")
    func includeDeclaration128() throws {
        // «Include» value: Included Service Attribute Handle 0x0030, End Group Handle 0x0032, no UUID
        let fixture = DBTest.hex("3000 3200")
        let include = try GATTIncludeDeclaration(decoding: fixture)
        #expect(include.includedServiceHandle == 0x0030)
        #expect(include.endGroupHandle == 0x0032)
        #expect(include.serviceUUID == nil)
        #expect(include.encoded == fixture)
        // Made from a 128-bit UUID, the value leaves it out.
        let made = GATTIncludeDeclaration(includedServiceHandle: 0x30, endGroupHandle: 0x32,
                                          serviceUUID: DBTest.uuid("A5F30001-6C1B-4B8E-9E3A-4C696E757842"))
        #expect(made.serviceUUID == nil)
        #expect(made.encoded == fixture)
    }

    @Test("include declaration: truncated at every length, trailing octets")
    func includeDeclarationMalformed() {
        let decode = { (b: [UInt8]) throws(BLEDecodingError) in try GATTIncludeDeclaration(decoding: b) }
        let full = DBTest.hex("1400 1600 0f18")
        let expected: [BLEDecodingError] = [
            .truncated(field: "Included Service Attribute Handle", offset: 0, needed: 2, available: 0),
            .truncated(field: "Included Service Attribute Handle", offset: 0, needed: 2, available: 1),
            .truncated(field: "End Group Handle", offset: 2, needed: 2, available: 0),
            .truncated(field: "End Group Handle", offset: 2, needed: 2, available: 1),
        ]
        for (length, error) in expected.enumerated() { expectFailure(error, Array(full.prefix(length)), decode) }
        // 4 octets is the 128-bit form; 5 leaves half a Service UUID.
        expectFailure(.truncated(field: "Service UUID", offset: 4, needed: 2, available: 1), Array(full.prefix(5)), decode)
        expectFailure(.unexpectedTrailingOctets(offset: 6, count: 1), full + [0x00], decode)
        expectFailure(.unexpectedTrailingOctets(offset: 6, count: 14), full + [UInt8](repeating: 0, count: 14), decode)
    }

    // MARK: Characteristic declaration

    @Test("characteristic declaration: 16-bit fixture, round trip")
    func characteristicDeclaration() throws {
        // «Characteristic» value (the demo capture, handle 0x0017):
        //   Characteristic Properties: 0x12 (Read, Notify)
        //   Characteristic Value Attribute Handle: 0x0018
        //   Characteristic UUID: 0x2A19 (Battery Level)
        let fixture = DBTest.hex("12 1800 192a")
        let declaration = try GATTCharacteristicDeclaration(decoding: fixture)
        #expect(declaration.properties == [.read, .notify])
        #expect(declaration.properties.rawValue == 0x12)
        #expect(declaration.valueHandle == 0x0018)
        #expect(declaration.uuid == DBTest.uuid(0x2A19))
        #expect(declaration.encoded == fixture)
        #expect(try GATTCharacteristicDeclaration(decoding: declaration.encoded) == declaration)
    }

    @Test("characteristic declaration: 128-bit fixture, round trip")
    func characteristicDeclaration128() throws {
        // «Characteristic» value (the demo capture, handle 0x0020):
        //   Characteristic Properties: 0x02 (Read)
        //   Characteristic Value Attribute Handle: 0x0021
        //   Characteristic UUID: A5F10002-6C1B-4B8E-9E3A-4C696E757842
        let fixture = DBTest.hex("02 2100 4278756e694c3a9e8e4b1b6c0200f1a5")
        let declaration = try GATTCharacteristicDeclaration(decoding: fixture)
        #expect(declaration.properties == .read)
        #expect(declaration.valueHandle == 0x0021)
        #expect(declaration.uuid == DBTest.uuid("A5F10002-6C1B-4B8E-9E3A-4C696E757842"))
        #expect(declaration.encoded == fixture)
        #expect(try GATTCharacteristicDeclaration(decoding: declaration.encoded) == declaration)
    }

    @Test("characteristic declaration: truncated at every length, bad UUID lengths")
    func characteristicDeclarationMalformed() {
        let decode = { (b: [UInt8]) throws(BLEDecodingError) in try GATTCharacteristicDeclaration(decoding: b) }
        let full = DBTest.hex("12 1800 192a")
        let expected: [BLEDecodingError] = [
            .truncated(field: "Characteristic Properties", offset: 0, needed: 1, available: 0),
            .truncated(field: "Characteristic Value Attribute Handle", offset: 1, needed: 2, available: 0),
            .truncated(field: "Characteristic Value Attribute Handle", offset: 1, needed: 2, available: 1),
            .truncated(field: "Characteristic UUID", offset: 3, needed: 2, available: 0),
            .truncated(field: "Characteristic UUID", offset: 3, needed: 2, available: 1),
        ]
        for (length, error) in expected.enumerated() { expectFailure(error, Array(full.prefix(length)), decode) }
        for uuidLength in 3...17 where uuidLength != 16 {
            let bytes = DBTest.hex("12 1800") + [UInt8](repeating: 0x11, count: uuidLength)
            expectFailure(.invalidValue(field: "Characteristic UUID", offset: 3,
                                        reason: "\(uuidLength) octets; a 16-bit (2-octet) or 128-bit (16-octet) UUID is required"),
                          bytes, decode)
        }
    }

    // MARK: Properties

    @Test("properties: every bit named, names round trip, reserved extended bits kept")
    func properties() {
        #expect(GATTCharacteristicProperties(rawValue: 0xFF).nameList == [
            "broadcast", "read", "writeWithoutResponse", "write", "notify", "indicate",
            "authenticatedSignedWrites", "extendedProperties"])
        for (name, property) in GATTCharacteristicProperties.names {
            #expect(GATTCharacteristicProperties(name: name) == property)
        }
        #expect(GATTCharacteristicProperties(name: "Read") == nil)
        #expect(GATTCharacteristicProperties([.read, .notify]).description == "0x12 [read, notify]")

        let extended = GATTCharacteristicExtendedProperties(rawValue: 0x8003)
        #expect(extended.contains(.reliableWrite))
        #expect(extended.contains(.writableAuxiliaries))
        #expect(extended.nameList == ["reliableWrite", "writableAuxiliaries"])
        #expect(extended.description == "0x8003 [reliableWrite, writableAuxiliaries]")
    }

    // MARK: Descriptor values

    @Test("Characteristic Extended Properties: fixture, round trip, malformed")
    func extendedProperties() throws {
        // «Characteristic Extended Properties» value: 0x0001 (Reliable Write)
        let value = try GATTCharacteristicExtendedProperties(decoding: DBTest.hex("0100"))
        #expect(value == .reliableWrite)
        #expect(value.encoded == DBTest.hex("0100"))
        #expect(try GATTCharacteristicExtendedProperties(decoding: GATTCharacteristicExtendedProperties(rawValue: 0xF002).encoded).rawValue == 0xF002)
        let decode = { (b: [UInt8]) throws(BLEDecodingError) in try GATTCharacteristicExtendedProperties(decoding: b) }
        let field = "Characteristic Extended Properties Bit Field"
        expectFailure(.truncated(field: field, offset: 0, needed: 2, available: 0), [], decode)
        expectFailure(.truncated(field: field, offset: 0, needed: 2, available: 1), [0x01], decode)
        expectFailure(.unexpectedTrailingOctets(offset: 2, count: 1), [0x01, 0x00, 0x00], decode)
    }

    @Test("Client and Server Characteristic Configuration: fixtures, round trip, malformed")
    func configurations() throws {
        // CCCD value 0x0002: indications (the demo's write to 0x0029)
        let cccd = try GATTClientCharacteristicConfiguration(decoding: DBTest.hex("0200"))
        #expect(cccd == .indication)
        #expect(!cccd.contains(.notification))
        #expect(cccd.encoded == DBTest.hex("0200"))
        // Reserved bits are kept.
        #expect(try GATTClientCharacteristicConfiguration(decoding: DBTest.hex("0380")).rawValue == 0x8003)

        // SCCD value 0x0001: broadcast
        let sccd = try GATTServerCharacteristicConfiguration(decoding: DBTest.hex("0100"))
        #expect(sccd == .broadcast)
        #expect(sccd.encoded == DBTest.hex("0100"))

        let field = "Characteristic Configuration Bits"
        let malformed: [([UInt8], BLEDecodingError)] = [
            ([], .truncated(field: field, offset: 0, needed: 2, available: 0)),
            ([0x01], .truncated(field: field, offset: 0, needed: 2, available: 1)),
            ([0x01, 0x00, 0x00, 0x00], .unexpectedTrailingOctets(offset: 2, count: 2)),
        ]
        for (bytes, error) in malformed {
            expectFailure(error, bytes) { (b: [UInt8]) throws(BLEDecodingError) in try GATTClientCharacteristicConfiguration(decoding: b) }
            expectFailure(error, bytes) { (b: [UInt8]) throws(BLEDecodingError) in try GATTServerCharacteristicConfiguration(decoding: b) }
        }
    }

    @Test("Presentation Format: annotated fixture, round trip")
    func presentationFormat() throws {
        // «Characteristic Presentation Format» value:
        //   Format: 0x0E (sint16)
        //   Exponent: 0xFE (-2)
        //   Unit: 0x272F (Celsius temperature)
        //   Name Space: 0x01 (Bluetooth SIG Assigned Numbers)
        //   Description: 0x0106
        let fixture = DBTest.hex("0e fe 2f27 01 0601")
        let format = try GATTPresentationFormat(decoding: fixture)
        #expect(format.format == .sint16)
        #expect(format.format.name == "sint16")
        #expect(format.exponent == -2)
        #expect(format.unit == 0x272F)
        #expect(format.unitUUID.name == "Celsius temperature (degree Celsius)")
        #expect(format.namespace == GATTPresentationFormat.bluetoothSIGNamespace)
        #expect(format.description == 0x0106)
        #expect(format.encoded == fixture)
        #expect(try GATTPresentationFormat(decoding: format.encoded) == format)

        // Defaults: exponent 0, unitless (0x2700), Bluetooth SIG, description 0.
        #expect(GATTPresentationFormat(format: .uint8).encoded == DBTest.hex("04 00 0027 01 0000"))
        // An unlisted format is kept raw.
        let raw = try GATTPresentationFormat(decoding: DBTest.hex("1c 00 0027 01 0000"))
        #expect(raw.format.rawValue == 0x1C)
        #expect(raw.format.name == nil)
        #expect(raw.format.description == "0x1c")
    }

    @Test("Presentation Format: truncated at every length, trailing octets")
    func presentationFormatMalformed() {
        let decode = { (b: [UInt8]) throws(BLEDecodingError) in try GATTPresentationFormat(decoding: b) }
        let full = DBTest.hex("0e fe 2f27 01 0601")
        let expected: [BLEDecodingError] = [
            .truncated(field: "Format", offset: 0, needed: 1, available: 0),
            .truncated(field: "Exponent", offset: 1, needed: 1, available: 0),
            .truncated(field: "Unit", offset: 2, needed: 2, available: 0),
            .truncated(field: "Unit", offset: 2, needed: 2, available: 1),
            .truncated(field: "Name Space", offset: 4, needed: 1, available: 0),
            .truncated(field: "Description", offset: 5, needed: 2, available: 0),
            .truncated(field: "Description", offset: 5, needed: 2, available: 1),
        ]
        #expect(expected.count == GATTPresentationFormat.length)
        for (length, error) in expected.enumerated() { expectFailure(error, Array(full.prefix(length)), decode) }
        expectFailure(.unexpectedTrailingOctets(offset: 7, count: 1), full + [0], decode)
    }

    @Test("formats: every Short Name round trips")
    func formats() {
        for raw in UInt8(1)...0x1B {
            let format = GATTFormat(rawValue: raw)
            let name = format.name
            #expect(name != nil)
            #expect(name.flatMap { GATTFormat(name: $0) } == format)
        }
        #expect(GATTFormat(rawValue: 0).name == nil)
        #expect(GATTFormat(name: "uint8") == .uint8)
        #expect(GATTFormat(name: "SFLOAT") == .sfloat)
        #expect(GATTFormat(name: "struct") == .opaqueStructure)
        #expect(GATTFormat.utf8s.description == "utf8s (0x19)")
    }

    @Test("Aggregate Format: fixture, round trip, odd length")
    func aggregateFormat() throws {
        // «Characteristic Aggregate Format» value: handles 0x0024, 0x0025
        let fixture = DBTest.hex("2400 2500")
        let aggregate = try GATTAggregateFormat(decoding: fixture)
        #expect(aggregate.handles == [0x0024, 0x0025])
        #expect(aggregate.encoded == fixture)
        #expect(try GATTAggregateFormat(decoding: []).handles.isEmpty)
        let decode = { (b: [UInt8]) throws(BLEDecodingError) in try GATTAggregateFormat(decoding: b) }
        expectFailure(.truncated(field: "Attribute Handle", offset: 0, needed: 2, available: 1), [0x24], decode)
        expectFailure(.truncated(field: "Attribute Handle", offset: 2, needed: 2, available: 1), [0x24, 0x00, 0x25], decode)
    }

    @Test("decoding a slice counts offsets from its start")
    func slices() throws {
        let pdu = DBTest.hex("09 07 0200 020300002a")   // a Read By Type Response around a declaration
        let declaration = try GATTCharacteristicDeclaration(decoding: pdu[4...])
        #expect(declaration.valueHandle == 0x0003)
        #expect(throws: BLEDecodingError.truncated(field: "Characteristic UUID", offset: 3, needed: 2, available: 1)) {
            try GATTCharacteristicDeclaration(decoding: pdu[4..<8])
        }
    }
}
