import Testing
import BLECore
@testable import ATT
@testable import GATT

/// The client's parsers of GATT-defined values (Core v5.4, Vol 3, Part G, 3.1, 3.2, 3.3.1,
/// 7.1, 7.3): fixtures, round trips through the fake server's table builder, and every
/// truncation.
@Suite("GATT client: declaration values")
struct ClientDeclarationTests {
    /// Expects `body` to fail with a malformed value at `handle` and exactly `error`.
    func expectMalformed<T>(_ error: BLEDecodingError, at handle: UInt16 = 0x0010,
                            sourceLocation: SourceLocation = #_sourceLocation,
                            _ body: () throws(GATTClientError) -> T) {
        #expect(throws: GATTClientError.protocolViolation(.malformedValue(handle: handle, error)),
                sourceLocation: sourceLocation) { _ = try body() }
    }

    @Test("fixture: characteristic declarations with 16-bit and 128-bit UUIDs")
    func characteristicDeclaration() throws {
        // Characteristic declaration value (Part G, 3.3.1, Table 3.4)
        //   Characteristic Properties: 0x12 (read, notify)
        //   Characteristic Value Handle: 0x000e
        //   Characteristic UUID: 2a37 (Heart Rate Measurement)
        let short = try RemoteDeclarations.characteristic(ClientTest.hex("12 0e00 372a"), handle: 0x000D)
        #expect(short.properties == [.read, .notify])
        #expect(short.valueHandle == 0x000E)
        #expect(short.uuid == BluetoothUUID(0x2A37))
        #expect(short.properties.description == "0x12 [read, notify]")

        //   Characteristic Properties: 0x1e, Value Handle 0x001d, UUID 6e400002-b5a3-f393-e0a9-e50e24dcca9e
        let long = try RemoteDeclarations.characteristic(ClientTest.hex("1e 1d00 9ecadc240ee5a9e093f3a3b50200406e"), handle: 0x001C)
        #expect(long.properties == [.read, .writeWithoutResponse, .write, .notify])
        #expect(long.valueHandle == 0x001D)
        #expect(long.uuid == ClientTables.vendorCharacteristic)
        #expect(long.uuid.width == .bits128)
        #expect(RemoteCharacteristic.Properties(rawValue: 0xFF).description
                == "0xff [broadcast, read, writeWithoutResponse, write, notify, indicate, authenticatedSignedWrites, extendedProperties]")
        #expect(RemoteCharacteristic.Properties(rawValue: 0x01).description == "0x01 [broadcast]")
    }

    @Test("round trip: the declarations a table builder writes parse back to what it was given")
    func roundTrip() throws {
        var table = FakeGATTTable()
        table.primaryService(BluetoothUUID(0x180D))                                      // 0x0001
        table.secondaryService(ClientTables.vendorService)                               // 0x0002
        table.include(serviceHandle: 0x0002, endHandle: 0x0004, uuid: BluetoothUUID(0x180F))   // 0x0003
        table.include(serviceHandle: 0x0002, endHandle: 0x0004, uuid: ClientTables.vendorService) // 0x0004
        table.characteristic(ClientTables.vendorCharacteristic, properties: 0x3A)       // 0x0005, 0x0006
        let values = table.attributes.map(\.value)
        #expect(try RemoteDeclarations.serviceUUID(values[0], handle: 1) == BluetoothUUID(0x180D))
        #expect(try RemoteDeclarations.serviceUUID(values[1], handle: 2) == ClientTables.vendorService)
        let include16 = try RemoteDeclarations.include(values[2], handle: 3)
        #expect(include16.serviceHandle == 0x0002 && include16.endHandle == 0x0004 && include16.uuid == BluetoothUUID(0x180F))
        let include128 = try RemoteDeclarations.include(values[3], handle: 4)
        #expect(include128.serviceHandle == 0x0002 && include128.endHandle == 0x0004 && include128.uuid == nil)
        let declaration = try RemoteDeclarations.characteristic(values[4], handle: 5)
        #expect(declaration.properties.rawValue == 0x3A && declaration.valueHandle == 0x0006
                && declaration.uuid == ClientTables.vendorCharacteristic)
        // Written again from what was parsed, the octets are the same.
        var again = FakeGATTTable()
        again.skip(to: 0x0005)
        again.characteristic(declaration.uuid, properties: declaration.properties.rawValue)
        #expect(again.attributes[0].value == values[4])
    }

    @Test("fixture: Service Changed range and Database Hash")
    func gattServiceValues() throws {
        // Service Changed (Part G, 7.1): Start 0x0019, End 0xffff
        #expect(try RemoteDeclarations.serviceChangedRange(ClientTest.hex("1900 ffff"), handle: 0x0008) == 0x0019...0xFFFF)
        #expect(try RemoteDeclarations.serviceChangedRange(ClientTest.hex("0500 0500"), handle: 0x0008) == 0x0005...0x0005)
        // Database Hash (Part G, 7.3): 16 octets, kept as sent
        #expect(try RemoteDeclarations.databaseHash(ClientTables.hashA, handle: 0x000D) == ClientTables.hashA)
    }

    @Test("malformed: every truncation, trailing octets, bad lengths, a reversed range")
    func malformed() {
        let declaration = ClientTest.hex("12 0e00 372a")
        for cut in 0..<declaration.count {
            let value = Array(declaration.prefix(cut))
            let error: BLEDecodingError
            if cut == 0 {
                error = .truncated(field: "Characteristic Properties", offset: 0, needed: 1, available: 0)
            } else if cut < 3 {
                error = .truncated(field: "Characteristic Value Handle", offset: 1, needed: 2, available: cut - 1)
            } else {
                error = .invalidValue(field: "Characteristic UUID", offset: 3, reason: "\(cut - 3) octets; a UUID here has 2 or 16")
            }
            expectMalformed(error) { () throws(GATTClientError) in try RemoteDeclarations.characteristic(value, handle: 0x0010) }
        }
        expectMalformed(.invalidValue(field: "Characteristic UUID", offset: 3, reason: "4 octets; a UUID here has 2 or 16")) {
            () throws(GATTClientError) in try RemoteDeclarations.characteristic(ClientTest.hex("12 0e00 372a0000"), handle: 0x0010)
        }

        for cut in 0..<2 {
            expectMalformed(.invalidValue(field: "Service UUID", offset: 0, reason: "\(cut) octets; a UUID here has 2 or 16")) {
                () throws(GATTClientError) in try RemoteDeclarations.serviceUUID(Array(repeating: 0x18, count: cut), handle: 0x0010)
            }
        }

        let include = ClientTest.hex("0200 0400 0f18")
        for cut in 0..<include.count where cut != 4 {
            let value = Array(include.prefix(cut))
            let error: BLEDecodingError = cut < 2
                ? .truncated(field: "Included Service Attribute Handle", offset: 0, needed: 2, available: cut)
                : cut < 4 ? .truncated(field: "End Group Handle", offset: 2, needed: 2, available: cut - 2)
                : .truncated(field: "Service UUID", offset: 4, needed: 2, available: cut - 4)
            expectMalformed(error) { () throws(GATTClientError) in try RemoteDeclarations.include(value, handle: 0x0010) }
        }
        expectMalformed(.unexpectedTrailingOctets(offset: 6, count: 1)) {
            () throws(GATTClientError) in try RemoteDeclarations.include(include + [0x00], handle: 0x0010)
        }
        // An include whose End Group Handle (0x0002) lies below its service (0x0004), and one
        // naming the reserved handle 0x0000 (Part G, 3.2; Part F, 3.2.2).
        expectMalformed(.invalidValue(field: "End Group Handle", offset: 2, reason: "0x0002 is below the included service 0x0004")) {
            () throws(GATTClientError) in try RemoteDeclarations.include(ClientTest.hex("0400 0200 0f18"), handle: 0x0010)
        }
        expectMalformed(.invalidValue(field: "Included Service Attribute Handle", offset: 0, reason: "0x0000 is reserved")) {
            () throws(GATTClientError) in try RemoteDeclarations.include(ClientTest.hex("0000 0400"), handle: 0x0010)
        }
        // A one-handle service (declaration only) is valid.
        #expect((try? RemoteDeclarations.include(ClientTest.hex("0400 0400 0f18"), handle: 0x0010))?.endHandle == 0x0004)

        let changed = ClientTest.hex("1900 ffff")
        for cut in 0..<changed.count {
            let value = Array(changed.prefix(cut))
            let error: BLEDecodingError = cut < 2
                ? .truncated(field: "Start of Affected Attribute Handle Range", offset: 0, needed: 2, available: cut)
                : .truncated(field: "End of Affected Attribute Handle Range", offset: 2, needed: 2, available: cut - 2)
            expectMalformed(error, at: 0x0008) { () throws(GATTClientError) in
                try RemoteDeclarations.serviceChangedRange(value, handle: 0x0008)
            }
        }
        expectMalformed(.invalidValue(field: "End of Affected Attribute Handle Range", offset: 2,
                                      reason: "0x0010 is below the start 0x0020"), at: 0x0008) { () throws(GATTClientError) in
            try RemoteDeclarations.serviceChangedRange(ClientTest.hex("2000 1000"), handle: 0x0008)
        }
        expectMalformed(.unexpectedTrailingOctets(offset: 4, count: 1), at: 0x0008) { () throws(GATTClientError) in
            try RemoteDeclarations.serviceChangedRange(changed + [0x00], handle: 0x0008)
        }

        expectMalformed(.truncated(field: "Database Hash", offset: 0, needed: 16, available: 15), at: 0x000D) {
            () throws(GATTClientError) in try RemoteDeclarations.databaseHash(Array(ClientTables.hashA.prefix(15)), handle: 0x000D)
        }
        expectMalformed(.unexpectedTrailingOctets(offset: 16, count: 1), at: 0x000D) { () throws(GATTClientError) in
            try RemoteDeclarations.databaseHash(ClientTables.hashA + [0x00], handle: 0x000D)
        }
    }

    @Test("descriptions of errors and values read like the specification")
    func descriptions() {
        #expect(GATTClientError.errorResponse(request: .readRequest, handle: 0x0003, code: .readNotPermitted).description
                == "Read Request handle 0x0003: \(ATTErrorCode.readNotPermitted)")
        #expect(GATTClientError.protocolViolation(.handleOutOfRange(request: .readByGroupTypeRequest, handle: 0x0001,
                                                                    expected: 0x0006...0xFFFF)).description
                == "protocol violation: Read By Group Type Request answered with handle 0x0001, outside 0x0006...0xffff")
        #expect(GATTClientError(ATTError.timeout) == .timeout)
        #expect(GATTClientError(ATTError.pduTooLarge(size: 30, mtu: 23)) == .pduTooLarge(size: 30, mtu: 23))
        #expect(GATTClientError(ATTErrorResponse(requestOpcodeInError: .writeRequest, attributeHandleInError: 0x0012,
                                                 errorCode: .writeNotPermitted)).attErrorCode == .writeNotPermitted)
        #expect(GATTClientError.closed.attErrorCode == nil)
        let include = RemoteIncludedService(declarationHandle: 0x0013, serviceHandle: 0x000E, endHandle: 0x0011, uuid: BluetoothUUID(0x180F))
        #expect(include.description == "Include 0x0013: service 0x000e...0x0011 180F (Battery)")
        #expect(RemoteNotification(handle: 0x0003, value: [0x01, 0x00], isIndication: true).description == "indication 0x0003: 0100")
    }
}
