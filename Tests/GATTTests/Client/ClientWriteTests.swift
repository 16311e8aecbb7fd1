import Testing
import BLECore
@testable import ATT
@testable import GATT
import BLETestSupport

/// Writes (Core v5.4, Vol 3, Part G, 4.9) at ATT_MTU 23 against ClientTables.standard:
/// 0x001a the Heart Rate Control Point (1 octet), 0x001d the 40-octet vendor value.
@Suite("GATT client: writes")
struct ClientWriteTests {
    /// The CSRK of the specification's signed write example, most significant octet first.
    static let exampleCSRK = "611B64EBFBCD1FD372EC9196DF425E50"

    @Test("Write Without Response: one Write Command, never answered (4.9.1)")
    func writeWithoutResponse() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        try await rig.client.writeWithoutResponse([0x01], to: h.controlPoint)
        #expect(await eventually { rig.server.value(at: h.controlPoint) == [0x01] })
        rig.expectTranscript(["> 52 1a00 01"])   // Write Command, handle 0x001a, value 01

        await #expect(throws: GATTClientError.pduTooLarge(size: 24, mtu: 23)) {
            try await rig.client.writeWithoutResponse(Array(repeating: 0, count: 21), to: h.controlPoint)
        }
        #expect(rig.transcript.count == 1)
        await rig.close()
    }

    @Test("Write Characteristic Value: Write Request and Write Response (4.9.3)")
    func write() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        try await rig.client.write([0x02], to: h.controlPoint)
        rig.expectTranscript([
            "> 12 1a00 02",   // Write Request, handle 0x001a, value 02
            "< 13",           // Write Response
        ])
        #expect(rig.server.value(at: h.controlPoint) == [0x02])

        rig.server.fail(.writeRequest, handle: h.controlPoint, code: .writeNotPermitted)
        await #expect(throws: GATTClientError.errorResponse(request: .writeRequest, handle: 0x001A, code: .writeNotPermitted)) {
            try await rig.client.write([0x03], to: h.controlPoint)
        }
        await #expect(throws: GATTClientError.pduTooLarge(size: 24, mtu: 23)) {
            try await rig.client.write(Array(repeating: 0, count: 21), to: h.controlPoint)
        }
        await rig.close()
    }

    @Test("Write Long Characteristic Values: Prepare Writes of ATT_MTU - 5 octets, then Execute (4.9.4)")
    func writeLong() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        let value = Array(UInt8(0x80)..<UInt8(0x80 + 40))
        try await rig.client.writeLong(value, to: h.vendorValue)
        rig.expectTranscript([
            "> 16 1d00 0000 808182838485868788898a8b8c8d8e8f9091",   // Prepare Write, offset 0, 18 octets
            "< 17 1d00 0000 808182838485868788898a8b8c8d8e8f9091",   // echoed
            "> 16 1d00 1200 92939495969798999a9b9c9d9e9fa0a1a2a3",   // offset 18
            "< 17 1d00 1200 92939495969798999a9b9c9d9e9fa0a1a2a3",
            "> 16 1d00 2400 a4a5a6a7",                               // offset 36, the last 4 octets
            "< 17 1d00 2400 a4a5a6a7",
            "> 18 01",                                               // Execute Write: write all
            "< 19",
        ])
        #expect(rig.server.value(at: h.vendorValue) == value)

        // From an offset: the parts start there.
        rig.clearTranscript()
        try await rig.client.writeLong([0xEE, 0xEF], to: h.vendorValue, offset: 38)
        rig.expectTranscript(["> 16 1d00 2600 eeef", "< 17 1d00 2600 eeef", "> 18 01", "< 19"])
        #expect(rig.server.value(at: h.vendorValue) == Array(value.prefix(38)) + [0xEE, 0xEF])

        await #expect(throws: GATTClientError.invalidArgument("offset 65535 + 2 octets passes 65535")) {
            try await rig.client.writeLong([1, 2], to: h.vendorValue, offset: 0xFFFF)
        }
        await rig.close()
    }

    @Test("Reliable Writes: every echo checked, then Execute (4.9.5)")
    func reliableWrite() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        let long = Array(repeating: UInt8(0x5A), count: 20)
        try await rig.client.reliableWrite([GATTReliableWrite(handle: h.controlPoint, value: [0x07]),
                                            GATTReliableWrite(handle: h.vendorValue, value: long)])
        rig.expectTranscript([
            "> 16 1a00 0000 07", "< 17 1a00 0000 07",
            "> 16 1d00 0000 " + String(repeating: "5a", count: 18), "< 17 1d00 0000 " + String(repeating: "5a", count: 18),
            "> 16 1d00 1200 5a5a", "< 17 1d00 1200 5a5a",
            "> 18 01", "< 19",
        ])
        #expect(rig.server.value(at: h.controlPoint) == [0x07])
        #expect(rig.server.value(at: h.vendorValue) == long)
        await #expect(throws: GATTClientError.invalidArgument("a reliable write needs at least one value")) {
            try await rig.client.reliableWrite([])
        }
        await rig.close()
    }

    @Test("Reliable Writes: an echo that differs cancels the queue and throws")
    func reliableWriteMismatch() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        // The server echoes the second prepare with one octet changed.
        let wrong = ATTPrepareWriteResponse(handle: h.vendorValue, valueOffset: 0, partAttributeValue: [0x99])
        rig.server.inject(.prepareWriteResponse(wrong)) {
            if case .prepareWriteRequest(let prepare) = $0 { return prepare.handle == h.vendorValue }
            return false
        }
        let sent = ATTPrepareWriteRequest(handle: h.vendorValue, valueOffset: 0, partAttributeValue: [0x98])
        await #expect(throws: GATTClientError.prepareWriteMismatch(sent: sent, received: wrong)) {
            try await rig.client.reliableWrite([GATTReliableWrite(handle: h.controlPoint, value: [0x07]),
                                                GATTReliableWrite(handle: h.vendorValue, value: [0x98])])
        }
        rig.expectTranscript([
            "> 16 1a00 0000 07", "< 17 1a00 0000 07",
            "> 16 1d00 0000 98", "< 17 1d00 0000 99",   // not an echo
            "> 18 00", "< 19",                          // Execute Write, Flags 0x00: cancel all prepared writes
        ])
        #expect(rig.server.value(at: h.controlPoint) == [0x00])   // nothing written
        #expect(rig.server.value(at: h.vendorValue) == Array(0..<40))
        await rig.close()
    }

    @Test("an error answering a prepare cancels the queue; an error answering the execute is thrown")
    func queuedWriteErrors() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        rig.server.inject(.errorResponse(ATTErrorResponse(requestOpcodeInError: .prepareWriteRequest,
                                                          attributeHandleInError: h.vendorValue, errorCode: .prepareQueueFull))) {
            if case .prepareWriteRequest(let prepare) = $0 { return prepare.valueOffset == 18 }
            return false
        }
        await #expect(throws: GATTClientError.errorResponse(request: .prepareWriteRequest, handle: 0x001D, code: .prepareQueueFull)) {
            try await rig.client.writeLong(Array(repeating: 1, count: 30), to: h.vendorValue)
        }
        #expect(rig.transcript.suffix(4) == ["> 161d001200" + String(repeating: "01", count: 12), "< 01161d0009", "> 1800", "< 19"])
        #expect(rig.server.value(at: h.vendorValue) == Array(0..<40))

        rig.clearTranscript()
        rig.server.fail(.executeWriteRequest, handle: h.vendorValue, code: .invalidAttributeValueLength)
        await #expect(throws: GATTClientError.errorResponse(request: .executeWriteRequest, handle: 0x001D,
                                                            code: .invalidAttributeValueLength)) {
            try await rig.client.writeLong([1, 2, 3], to: h.vendorValue)
        }
        await rig.close()
    }

    @Test("concurrent long writes never interleave their prepares")
    func queuedWritesDoNotInterleave() async throws {
        let (table, h) = ClientTables.standard()
        let rig = ClientRig(table)
        let client = rig.client
        async let first: Void = client.writeLong(Array(repeating: 0xAA, count: 40), to: h.vendorValue)
        async let second: Void = client.writeLong(Array(repeating: 0xBB, count: 30), to: h.deviceName)
        _ = try await (first, second)
        // Each run of prepares is followed by its execute before the other's first prepare.
        let opcodes = rig.link.transcript.filter { $0.sender == .first }.map { ($0.pdu[0], $0.pdu.count > 2 ? $0.pdu[1] : 0) }
        let handles = opcodes.filter { $0.0 == 0x16 }.map(\.1)
        let executes = opcodes.enumerated().filter { $0.element.0 == 0x18 }.map(\.offset)
        #expect(executes.count == 2)
        #expect(handles == [0x1D, 0x1D, 0x1D, 0x03, 0x03] || handles == [0x03, 0x03, 0x1D, 0x1D, 0x1D])
        #expect(opcodes[executes[0] - 1].0 == 0x16 && opcodes[executes[0] + 1].0 == 0x16)
        await rig.close()
    }

    // MARK: Signed writes

    @Test("the CSRK signs the specification's example: D212001337, SignCounter 1 (Part H, 2.4.5)")
    func signingKey() throws {
        // CSRK 0x611B64EBFBCD1FD372EC9196DF425E50 (most significant octet first)
        // m = D2 1200 1337 (Signed Write Command, handle 0x0012, value 1337), SignCounter 1
        // MAC = the 64 most significant bits of AES-CMAC = 0xF20F903C931E87F1
        // Authentication Signature on the wire: 01000000 f1871e933c900ff2
        let key = try #require(GATTSigningKey(mostSignificantFirst: Self.exampleCSRK))
        #expect(key.octets == ClientTest.hex("505E42DF9691EC72D31FCDFBEB641B61"))   // transmission order
        let signature = try key.signature(of: ClientTest.hex("d2 1200 1337"), signCounter: 1)
        #expect(signature.signCounter == 1)
        #expect(signature.mac == 0xF20F_903C_931E_87F1)
        #expect(signature.octets == ClientTest.hex("01000000 f1871e933c900ff2"))

        let command = try key.signedWrite(handle: 0x0012, value: [0x13, 0x37], signCounter: 1)
        #expect(command.encoded == ClientTest.hex("d2 1200 1337 01000000 f1871e933c900ff2"))
        #expect(key.verifies(command))
        var forged = command
        forged.value = [0x13, 0x38]
        #expect(!key.verifies(forged))
        forged = command
        forged.signature.signCounter = 2
        #expect(!key.verifies(forged))
        #expect(key.description == "CSRK")
        #expect(GATTSigningKey(octets: [1, 2, 3]) == nil)
        #expect(GATTSigningKey(mostSignificantFirst: "00") == nil)
        #expect(GATTSigningKey(octets: key.octets) == key)
    }

    @Test("Signed Write Without Response sends the signed command and spends the counter (4.9.2)")
    func signedWrite() async throws {
        let (table, _) = ClientTables.standard()
        let key = try #require(GATTSigningKey(mostSignificantFirst: Self.exampleCSRK))
        let rig = ClientRig(table, signingKey: key, signCounter: 1)
        try await rig.client.signedWriteWithoutResponse([0x13, 0x37], to: 0x0012)
        rig.expectTranscript(["> d2 1200 1337 01000000 f1871e933c900ff2"])   // the specification's example, byte for byte
        #expect(await rig.client.signCounter == 2)
        #expect(await eventually { rig.server.count(.signedWriteCommand) == 1 })

        try await rig.client.signedWriteWithoutResponse([0x13, 0x37], to: 0x0012)
        let second = try ATTSignedWriteCommand(decoding: try #require(rig.link.transcript.last?.pdu))
        #expect(second.signature.signCounter == 2)
        #expect(key.verifies(second))
        #expect(await rig.client.signCounter == 3)

        // ATT_MTU - 15 = 8 octets of value at most.
        await #expect(throws: GATTClientError.pduTooLarge(size: 24, mtu: 23)) {
            try await rig.client.signedWriteWithoutResponse(Array(repeating: 0, count: 9), to: 0x0012)
        }
        #expect(await rig.client.signCounter == 3)
        await rig.close()
    }

    @Test("on an encrypted link a signed write is sent as a Write Command; the counter is kept")
    func signedWriteEncrypted() async throws {
        let (table, _) = ClientTables.standard()
        let key = try #require(GATTSigningKey(mostSignificantFirst: Self.exampleCSRK))
        let rig = ClientRig(table, signingKey: key, signCounter: 5)
        rig.link.security = ATTSecurity(isEncrypted: true, encryptionKeySize: 16)
        try await rig.client.signedWriteWithoutResponse([0x13, 0x37], to: 0x0012)
        rig.expectTranscript(["> 52 1200 1337"])
        #expect(await rig.client.signCounter == 5)
        await rig.close()
    }

    @Test("no key, an exhausted counter: typed errors, nothing sent")
    func signedWriteRefusals() async throws {
        let (table, _) = ClientTables.standard()
        let rig = ClientRig(table)
        await #expect(throws: GATTClientError.noSigningKey) { try await rig.client.signedWriteWithoutResponse([1], to: 0x0012) }
        let key = try #require(GATTSigningKey(mostSignificantFirst: Self.exampleCSRK))
        await rig.client.setSigningKey(key, signCounter: .max)
        await #expect(throws: GATTClientError.signCounterExhausted) {
            try await rig.client.signedWriteWithoutResponse([1], to: 0x0012)
        }
        #expect(rig.transcript.isEmpty)
        await rig.close()
    }
}
