import Testing
import BLECore
@testable import ATT
@testable import GATT
import BLETestSupport

/// Reads (Core v5.4, Vol 3, Part G, 4.8) at ATT_MTU 23 against ClientTables.standard:
/// 0x0003 Device Name "LinuxBLE", 0x0005 Appearance 4103, 0x0018 Body Sensor Location 01,
/// 0x001d a 40-octet vendor value 00 01 ... 27.
@Suite("GATT client: reads")
struct ClientReadTests {
    let forty: [UInt8] = Array(0..<40)

    @Test("Read Characteristic Value: one Read Request (4.8.1)")
    func read() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        let name = try await rig.client.read(h.deviceName)
        rig.expectTranscript([
            "> 0a 0300",                  // Read Request, handle 0x0003
            "< 0b 4c696e7578424c45",      // Read Response, "LinuxBLE"
        ])
        #expect(name == Array("LinuxBLE".utf8))
        // A long value comes cut to ATT_MTU - 1 = 22 octets.
        #expect(try await rig.client.read(h.vendorValue) == Array(forty.prefix(22)))
        await rig.close()
    }

    @Test("the server's error comes back with its opcode, handle and code")
    func readError() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        rig.server.fail(.readRequest, handle: h.deviceName, code: .readNotPermitted)
        await #expect(throws: GATTClientError.errorResponse(request: .readRequest, handle: 0x0003, code: .readNotPermitted)) {
            try await rig.client.read(h.deviceName)
        }
        rig.server.fail(.readRequest, handle: 0x0099, code: ATTErrorCode(rawValue: 0x80))   // an Application Error, kept raw
        let error = await #expect(throws: GATTClientError.self) { try await rig.client.read(0x0099) }
        #expect(error?.attErrorCode == ATTErrorCode(rawValue: 0x80))
        #expect(error?.description == "Read Request handle 0x0099: \(ATTErrorCode(rawValue: 0x80))")
        await rig.close()
    }

    @Test("Read Long Characteristic Values: Read, then Read Blob until a short part (4.8.3)")
    func readLong() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        let value = try await rig.client.readLong(h.vendorValue)
        rig.expectTranscript([
            "> 0a 1d00",                                          // Read Request, handle 0x001d
            "< 0b 000102030405060708090a0b0c0d0e0f101112131415",  // 22 octets = ATT_MTU - 1: there may be more
            "> 0c 1d00 1600",                                     // Read Blob Request, offset 22
            "< 0d 161718191a1b1c1d1e1f2021222324252627",          // 18 octets, short: the end
        ])
        #expect(value == forty)

        // From an offset: the first request is already a Read Blob.
        rig.clearTranscript()
        #expect(try await rig.client.readLong(h.vendorValue, offset: 30) == Array(forty.dropFirst(30)))
        rig.expectTranscript(["> 0c 1d00 1e00", "< 0d 1e1f2021222324252627"])

        // A short value costs one request.
        rig.clearTranscript()
        #expect(try await rig.client.readLong(h.deviceName) == Array("LinuxBLE".utf8))
        #expect(rig.requestCount == 1)
        await rig.close()
    }

    @Test("a value ending at a part's end: an empty part, Attribute Not Long or Invalid Offset ends the read")
    func readLongEndings() async throws {
        var table = FakeGATTTable()
        table.primaryService(BluetoothUUID(0x180A))
        let exact = table.characteristic(BluetoothUUID(0x2A24), properties: 0x02, value: Array(repeating: 0x41, count: 44)).value
        let rig = ClientRig(table)

        // The fake server answers a Read Blob at the value's length with an empty part.
        #expect(try await rig.client.readLong(exact) == Array(repeating: 0x41, count: 44))
        rig.expectTranscript([
            "> 0a 0300", "< 0b " + String(repeating: "41", count: 22),
            "> 0c 0300 1600", "< 0d " + String(repeating: "41", count: 22),
            "> 0c 0300 2c00", "< 0d",                       // offset 44 = the length: an empty part
        ])

        for code in [ATTErrorCode.attributeNotLong, .invalidOffset] {
            rig.clearTranscript()
            rig.server.inject(.errorResponse(ATTErrorResponse(requestOpcodeInError: .readBlobRequest, attributeHandleInError: exact,
                                                              errorCode: code))) {
                if case .readBlobRequest(let blob) = $0 { return blob.valueOffset == 44 }
                return false
            }
            #expect(try await rig.client.readLong(exact).count == 44)
            #expect(rig.transcript.last == "< 010c0300" + Hex.encode([code.rawValue]))
        }
        await rig.close()
    }

    @Test("a server that never ends a long value is stopped at 512 octets")
    func readLongTooLong() async throws {
        var table = FakeGATTTable()
        table.primaryService(BluetoothUUID(0x180A))
        let handle = table.characteristic(BluetoothUUID(0x2A24), properties: 0x02, value: Array(repeating: 0x42, count: 22)).value
        let rig = ClientRig(table)
        rig.server.inject(.readBlobResponse(ATTReadBlobResponse(partAttributeValue: Array(repeating: 0x42, count: 22))),
                          times: 1_000) { $0.opcode == .readBlobRequest }
        await #expect(throws: GATTClientError.protocolViolation(.valueTooLong(handle: handle, limit: 512))) {
            try await rig.client.readLong(handle)
        }
        // One Read and 23 Read Blobs (offsets 22...506) bring 528 octets: no further request.
        #expect(rig.requestCount == 24)
        await rig.close()
    }

    @Test("Read Using Characteristic UUID: one Read By Type Request (4.8.2)")
    func readByUUID() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        let names = try await rig.client.read(characteristicUUID: BluetoothUUID(0x2A00))
        rig.expectTranscript([
            "> 08 0100 ffff 002a",          // Read By Type Request 0x0001..0xffff, type 2a00
            "< 09 0a 0300 4c696e7578424c45", // Length 10: handle 0x0003, "LinuxBLE"
        ])
        #expect(names == [RemoteAttributeValue(handle: h.deviceName, value: Array("LinuxBLE".utf8))])
        #expect(names[0].description == "0x0003: 4c696e7578424c45")

        // Within a service's range; the vendor value is cut to ATT_MTU - 4 = 19 octets.
        rig.clearTranscript()
        let vendor = try await rig.client.read(characteristicUUID: ClientTables.vendorCharacteristic, in: 0x001B...0x001F)
        #expect(vendor == [RemoteAttributeValue(handle: h.vendorValue, value: Array(forty.prefix(19)))])
        #expect(rig.transcript.first == "> 081b001f00" + Hex.encode(ClientTables.vendorCharacteristic.littleEndianOctets))

        await #expect(throws: GATTClientError.errorResponse(request: .readByTypeRequest, handle: 0x0001, code: .attributeNotFound)) {
            try await rig.client.read(characteristicUUID: BluetoothUUID(0x2A6E))
        }
        await rig.close()
    }

    @Test("Read Multiple Characteristic Values: the values concatenated (4.8.4)")
    func readMultiple() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        let values = try await rig.client.readMultiple([h.appearance, h.bodySensorLocation])
        rig.expectTranscript([
            "> 0e 0500 1800",   // Read Multiple Request, handles 0x0005, 0x0018
            "< 0f 4103 01",     // Set Of Values: 4103 then 01
        ])
        #expect(values == [0x41, 0x03, 0x01])

        rig.clearTranscript()
        await #expect(throws: GATTClientError.invalidArgument("Read Multiple needs at least two handles")) {
            try await rig.client.readMultiple([h.appearance])
        }
        // Twelve handles make a 25-octet request, more than ATT_MTU 23.
        await #expect(throws: GATTClientError.pduTooLarge(size: 25, mtu: 23)) {
            try await rig.client.readMultiple(Array(repeating: h.appearance, count: 12))
        }
        #expect(rig.transcript.isEmpty)
        await rig.close()
    }

    @Test("Read Multiple Variable: a cut last value is completed with Read Blob (4.8.5)")
    func readMultipleVariableCut() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        let values = try await rig.client.readMultipleVariable([h.deviceName, h.appearance, h.vendorValue])
        rig.expectTranscript([
            "> 20 0300 0500 1d00",
            "< 21 0800 4c696e7578424c45"     // Value Length 8, "LinuxBLE"
                + " 0200 4103"               // Value Length 2, 4103
                + " 2800 000102030405",      // Value Length 40, cut after 6 octets by ATT_MTU - 1
            "> 0c 1d00 0600",                // Read Blob from offset 6
            "< 0d 060708090a0b0c0d0e0f101112131415161718191a1b",
            "> 0c 1d00 1c00",                // a full part: one more, from offset 28
            "< 0d 1c1d1e1f2021222324252627",
        ])
        #expect(values == [Array("LinuxBLE".utf8), [0x41, 0x03], forty])
        await rig.close()
    }

    @Test("Read Multiple Variable: values missing from the response are read with Read Long")
    func readMultipleVariableMissing() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        let values = try await rig.client.readMultipleVariable([h.vendorValue, h.deviceName, h.appearance])
        rig.expectTranscript([
            "> 20 1d00 0300 0500",
            "< 21 2800 000102030405060708090a0b0c0d0e0f10111213",   // 40 octets, cut after 20: nothing else fits
            "> 0c 1d00 1400",                                        // the rest of the first value
            "< 0d 1415161718191a1b1c1d1e1f2021222324252627",
            "> 0a 0300", "< 0b 4c696e7578424c45",                    // the two missing values
            "> 0a 0500", "< 0b 4103",
        ])
        #expect(values == [forty, Array("LinuxBLE".utf8), [0x41, 0x03]])

        await #expect(throws: GATTClientError.invalidArgument("Read Multiple Variable needs at least two handles")) {
            try await rig.client.readMultipleVariable([])
        }
        await rig.close()
    }

    @Test("Read Multiple Variable: more values than handles is a violation")
    func readMultipleVariableTooMany() async throws {
        let result = await ScriptedServer.run([("20 0300 0500", "21 0100 41 0100 42 0100 43")]) {
            try await $0.readMultipleVariable([0x0003, 0x0005])
        }
        #expect(throws: GATTClientError.protocolViolation(.tooManyValues(requested: 2, received: 3))) { try result.get() }
    }

    @Test("Exchange MTU once; longer parts follow the new ATT_MTU (4.3.1)")
    func exchangeMTU() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table, maximumMTU: (client: 517, server: 30))
        #expect(try await rig.client.exchangeMTU() == 30)
        rig.expectTranscript([
            "> 02 0502",   // Exchange MTU Request, Client Rx MTU 517
            "< 03 1e00",   // Exchange MTU Response, Server Rx MTU 30
        ])
        #expect(rig.client.mtu == 30)
        #expect(rig.client.maximumWriteValueLength == 27)
        await #expect(throws: GATTClientError.mtuAlreadyExchanged) { try await rig.client.exchangeMTU() }

        rig.clearTranscript()
        #expect(try await rig.client.readLong(h.vendorValue) == forty)
        #expect(rig.transcript.count == 4)   // 29 octets, then 11
        await rig.close()
    }

    @Test("closing while a procedure waits for its answer ends it with closed")
    func closeWhilePending() async throws {
        let (client, server) = ScriptedServer.make()
        var peer = server
        let pending = Task { try await client.readLong(0x0003) }
        await peer.expect("0a 0300")
        try peer.inject("0b " + String(repeating: "41", count: 22))   // a full part: a Read Blob follows
        await peer.expect("0c 0300 1600")
        await client.close()
        await #expect(throws: GATTClientError.closed) { try await pending.value }
        #expect(await eventually { await client.isClosed })
    }
}
