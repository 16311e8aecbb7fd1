import Testing
import BLECore
@testable import L2CAP

/// One signaling packet: its octets, the command they mean, and the spec's field table for its
/// data (offsets from the Code octet, so data fields start at 4).
struct SignalingFixture: CustomTestStringConvertible, Sendable {
    let hex: String
    let command: LESignalingCommand
    let identifier: UInt8
    let fields: [FieldSpec]
    var testDescription: String { command.code.description }
}

extension FieldSpec: @unchecked Sendable {}

/// Every command the LE decoder parses, as annotated in the tests below. The Connection
/// Parameter Update pair is real (nexxtender .cfa frames 549/550); the others are built from
/// the spec's tables, and all but 0x17...0x1A were checked against tshark's dissector (which
/// does not know 0x17...0x1A).
let signalingFixtures: [SignalingFixture] = [
    SignalingFixture(hex: "01 02 04 00 01 00 17 00",
                     command: .commandReject(.signalingMTUExceeded(actualMTU: 23)), identifier: 0x02,
                     fields: [FieldSpec("Reason", 4, 2)]),
    SignalingFixture(hex: "06 05 04 00 40 00 41 00",
                     command: .disconnectionRequest(.init(destinationCID: 0x0040, sourceCID: 0x0041)), identifier: 0x05,
                     fields: [FieldSpec("Destination CID", 4, 2), FieldSpec("Source CID", 6, 2)]),
    SignalingFixture(hex: "07 05 04 00 40 00 41 00",
                     command: .disconnectionResponse(.init(destinationCID: 0x0040, sourceCID: 0x0041)), identifier: 0x05,
                     fields: [FieldSpec("Destination CID", 4, 2), FieldSpec("Source CID", 6, 2)]),
    SignalingFixture(hex: "12 14 08 00 24 00 24 00 00 00 c8 00",
                     command: .connectionParameterUpdateRequest(.init(intervalMin: 36, intervalMax: 36, latency: 0, timeout: 200)),
                     identifier: 0x14,
                     fields: [FieldSpec("Interval Min", 4, 2), FieldSpec("Interval Max", 6, 2),
                              FieldSpec("Latency", 8, 2), FieldSpec("Timeout", 10, 2)]),
    SignalingFixture(hex: "13 14 02 00 00 00",
                     command: .connectionParameterUpdateResponse(.init(result: .accepted)), identifier: 0x14,
                     fields: [FieldSpec("Result", 4, 2)]),
    SignalingFixture(hex: "14 01 0a 00 80 00 40 00 00 02 f7 00 0a 00",
                     command: .leCreditBasedConnectionRequest(.init(spsm: 0x0080, sourceCID: 0x0040, mtu: 512, mps: 247, initialCredits: 10)),
                     identifier: 0x01,
                     fields: [FieldSpec("SPSM", 4, 2), FieldSpec("Source CID", 6, 2), FieldSpec("MTU", 8, 2),
                              FieldSpec("MPS", 10, 2), FieldSpec("Initial Credits", 12, 2)]),
    SignalingFixture(hex: "15 01 0a 00 41 00 00 02 f7 00 0a 00 00 00",
                     command: .leCreditBasedConnectionResponse(.init(destinationCID: 0x0041, mtu: 512, mps: 247, initialCredits: 10, result: .success)),
                     identifier: 0x01,
                     fields: [FieldSpec("Destination CID", 4, 2), FieldSpec("MTU", 6, 2), FieldSpec("MPS", 8, 2),
                              FieldSpec("Initial Credits", 10, 2), FieldSpec("Result", 12, 2)]),
    SignalingFixture(hex: "16 02 04 00 40 00 05 00",
                     command: .flowControlCreditIndication(.init(cid: 0x0040, credits: 5)), identifier: 0x02,
                     fields: [FieldSpec("CID", 4, 2), FieldSpec("Credits", 6, 2)]),
    SignalingFixture(hex: "17 03 0e 00 27 00 40 00 40 00 05 00 40 00 41 00 42 00",
                     command: .creditBasedConnectionRequest(.init(spsm: 0x0027, mtu: 64, mps: 64, initialCredits: 5,
                                                                  sourceCIDs: [0x0040, 0x0041, 0x0042])),
                     identifier: 0x03,
                     fields: [FieldSpec("SPSM", 4, 2), FieldSpec("MTU", 6, 2), FieldSpec("MPS", 8, 2),
                              FieldSpec("Initial Credits", 10, 2)]),
    SignalingFixture(hex: "18 03 0e 00 40 00 40 00 05 00 00 00 50 00 51 00 52 00",
                     command: .creditBasedConnectionResponse(.init(mtu: 64, mps: 64, initialCredits: 5, result: .allSuccessful,
                                                                   destinationCIDs: [0x0050, 0x0051, 0x0052])),
                     identifier: 0x03,
                     fields: [FieldSpec("MTU", 4, 2), FieldSpec("MPS", 6, 2), FieldSpec("Initial Credits", 8, 2),
                              FieldSpec("Result", 10, 2)]),
    SignalingFixture(hex: "19 04 08 00 00 01 00 01 40 00 41 00",
                     command: .creditBasedReconfigureRequest(.init(mtu: 256, mps: 256, destinationCIDs: [0x0040, 0x0041])),
                     identifier: 0x04,
                     fields: [FieldSpec("MTU", 4, 2), FieldSpec("MPS", 6, 2)]),
    SignalingFixture(hex: "1a 04 02 00 00 00",
                     command: .creditBasedReconfigureResponse(.init(result: .success)), identifier: 0x04,
                     fields: [FieldSpec("Result", 4, 2)]),
]

@Suite("LE signaling commands")
struct LESignalingCommandTests {
    /// Decodes a whole signaling packet and its command.
    func decode(_ hex: String) throws -> (LESignalingPacket, LESignalingCommand) {
        let packet = try LESignalingPacket(decoding: octets(hex))
        return (packet, try packet.command())
    }

    @Test("Command Reject: three reasons, reason data read per reason")
    func commandReject() throws {
        // 01       Code: Command Reject
        // 01       Identifier 0x01
        // 02 00    Length 2
        // 00 00    Reason: Command not understood (no reason data)
        let (p1, c1) = try decode("01 01 02 00 00 00")
        #expect(p1.identifier == 0x01)
        guard case .commandReject(let notUnderstood) = c1 else { Issue.record("not a Command Reject: \(c1)"); return }
        #expect(notUnderstood.reason == .commandNotUnderstood)
        #expect(notUnderstood.reasonData.isEmpty)
        #expect(notUnderstood.actualMTU == nil)
        #expect(c1.description == "Command Reject Command not understood")

        // 01 02 04 00 | 01 00 Reason: Signaling MTU exceeded | 17 00 Actual MTU 23
        let (_, c2) = try decode("01 02 04 00 01 00 17 00")
        guard case .commandReject(let mtu) = c2 else { Issue.record("not a Command Reject: \(c2)"); return }
        #expect(mtu.reason == .signalingMTUExceeded)
        #expect(mtu.actualMTU == 23)
        #expect(c2.description == "Command Reject Signaling MTU exceeded, actual MTU 23")

        // 01 03 06 00 | 02 00 Reason: Invalid CID in request | 40 00 Local Endpoint | 41 00 Remote Endpoint
        let (_, c3) = try decode("01 03 06 00 02 00 40 00 41 00")
        guard case .commandReject(let cid) = c3 else { Issue.record("not a Command Reject: \(c3)"); return }
        #expect(cid.reason == .invalidCIDInRequest)
        #expect(cid.invalidCIDs?.localEndpoint == 0x0040)
        #expect(cid.invalidCIDs?.remoteEndpoint == 0x0041)
        #expect(cid == .invalidCID(localEndpoint: 0x0040, remoteEndpoint: 0x0041))
        #expect(c3.description == "Command Reject Invalid CID in request, local endpoint 0x0040 remote endpoint 0x0041")

        // An unknown reason and reason data of the wrong shape are kept raw.
        let (_, c4) = try decode("01 04 03 00 09 00 ee")
        guard case .commandReject(let odd) = c4 else { Issue.record("not a Command Reject: \(c4)"); return }
        #expect(odd.reason.rawValue == 0x0009)
        #expect(odd.reasonData == [0xEE])
        #expect(c4.description == "Command Reject reason 0x0009, data ee")
    }

    @Test("Disconnection Request and Response")
    func disconnection() throws {
        // 06 Disconnection Request | 05 Identifier | 04 00 Length 4 | 40 00 Destination CID 0x0040 | 41 00 Source CID 0x0041
        let (p, c) = try decode("06 05 04 00 40 00 41 00")
        #expect(p.code == .disconnectionRequest)
        #expect(p.identifier == 0x05)
        guard case .disconnectionRequest(let request) = c else { Issue.record("\(c)"); return }
        #expect(request.destinationCID == 0x0040)
        #expect(request.sourceCID == 0x0041)
        #expect(c.description == "Disconnection Request destination CID 0x0040 source CID 0x0041")
        #expect(c.isRequest)

        // 07 Disconnection Response | 05 Identifier | 04 00 | 40 00 Destination CID | 41 00 Source CID
        let (_, r) = try decode("07 05 04 00 40 00 41 00")
        guard case .disconnectionResponse(let response) = r else { Issue.record("\(r)"); return }
        #expect(response.destinationCID == 0x0040)
        #expect(response.sourceCID == 0x0041)
        #expect(r.description == "Disconnection Response destination CID 0x0040 source CID 0x0041")
        #expect(!r.isRequest)
    }

    @Test("Connection Parameter Update Request and Response: real packets")
    func connectionParameterUpdate() throws {
        // nexxtender .cfa frame 549, charger -> phone (tshark: Min/Max Interval 36 = 45 ms,
        // latency 0, timeout 200 = 2 s):
        // 12 Code | 14 Identifier | 08 00 Length 8 | 24 00 Interval Min 36 (45 ms) |
        // 24 00 Interval Max 36 (45 ms) | 00 00 Latency 0 | c8 00 Timeout 200 (2000 ms)
        let (p, c) = try decode("12 14 08 00 24 00 24 00 00 00 c8 00")
        #expect(p.identifier == 0x14)
        guard case .connectionParameterUpdateRequest(let request) = c else { Issue.record("\(c)"); return }
        #expect(request.intervalMin == 36)
        #expect(request.intervalMax == 36)
        #expect(request.latency == 0)
        #expect(request.timeout == 200)
        #expect(request.timeoutMilliseconds == 2000)
        #expect(c.description == "Connection Parameter Update Request interval 45 ms latency 0 timeout 2000 ms")
        #expect(p.description == "id 0x14 Connection Parameter Update Request interval 45 ms latency 0 timeout 2000 ms")

        // frame 550, phone -> charger: 13 Code | 14 Identifier (same) | 02 00 Length 2 | 00 00 Result: accepted
        let (p2, r) = try decode("13 14 02 00 00 00")
        #expect(p2.identifier == p.identifier)
        guard case .connectionParameterUpdateResponse(let response) = r else { Issue.record("\(r)"); return }
        #expect(response.result == .accepted)
        #expect(r.description == "Connection Parameter Update Response accepted")

        // Built: 12 09 08 00 | 06 00 Interval Min 6 (7.5 ms) | 0c 00 Interval Max 12 (15 ms) | 00 00 | c8 00
        let (_, built) = try decode("12 09 08 00 06 00 0c 00 00 00 c8 00")
        #expect(built.description == "Connection Parameter Update Request interval 7.5-15 ms latency 0 timeout 2000 ms")
        let odd = L2CAPConnectionParameterUpdateRequest(intervalMin: 7, intervalMax: 3200, latency: 499, timeout: 3200)
        #expect(odd.description == "Connection Parameter Update Request interval 8.75-4000 ms latency 499 timeout 32000 ms")
        #expect(L2CAPConnectionParameterUpdateResponse(result: .rejected).description == "Connection Parameter Update Response rejected")
        #expect(L2CAPConnectionParameterUpdateResponse.Result(rawValue: 2).description == "result 0x0002")
    }

    @Test("LE Credit Based Connection Request and Response")
    func leCreditBased() throws {
        // 14 Code | 01 Identifier | 0a 00 Length 10 | 80 00 SPSM 0x0080 | 40 00 Source CID 0x0040 |
        // 00 02 MTU 512 | f7 00 MPS 247 | 0a 00 Initial Credits 10
        let (_, c) = try decode("14 01 0a 00 80 00 40 00 00 02 f7 00 0a 00")
        guard case .leCreditBasedConnectionRequest(let request) = c else { Issue.record("\(c)"); return }
        #expect(request.spsm == 0x0080)
        #expect(request.sourceCID == 0x0040)
        #expect(request.mtu == 512)
        #expect(request.mps == 247)
        #expect(request.initialCredits == 10)
        #expect(c.description == "LE Credit Based Connection Request SPSM 0x0080 source CID 0x0040 MTU 512 octets MPS 247 octets initial credits 10")

        // 15 Code | 01 Identifier | 0a 00 Length 10 | 41 00 Destination CID 0x0041 | 00 02 MTU 512 |
        // f7 00 MPS 247 | 0a 00 Initial Credits 10 | 00 00 Result: Connection successful
        let (_, r) = try decode("15 01 0a 00 41 00 00 02 f7 00 0a 00 00 00")
        guard case .leCreditBasedConnectionResponse(let response) = r else { Issue.record("\(r)"); return }
        #expect(response.destinationCID == 0x0041)
        #expect(response.mtu == 512)
        #expect(response.mps == 247)
        #expect(response.initialCredits == 10)
        #expect(response.result == .success)
        #expect(r.description == "LE Credit Based Connection Response destination CID 0x0041 MTU 512 octets MPS 247 octets initial credits 10 result Connection successful (0x0000)")

        // A refusal: 15 02 0a 00 | zeros | 05 00 Result: insufficient authentication
        let (_, refused) = try decode("15 02 0a 00 00 00 00 00 00 00 00 00 05 00")
        guard case .leCreditBasedConnectionResponse(let no) = refused else { Issue.record("\(refused)"); return }
        #expect(no.result == .insufficientAuthentication)
        #expect(no.result.description == "Connection refused - insufficient authentication (0x0005)")
        #expect(L2CAPLECreditBasedConnectionResponse.Result(rawValue: 0x0001).description == "result 0x0001 (reserved)")
        #expect(L2CAPLECreditBasedConnectionResponse.Result.unacceptableParameters.name == "Connection refused - unacceptable parameters")
    }

    @Test("Flow Control Credit Indication")
    func flowControlCredit() throws {
        // 16 Code | 02 Identifier | 04 00 Length 4 | 40 00 CID 0x0040 | 05 00 Credits 5
        let (_, c) = try decode("16 02 04 00 40 00 05 00")
        guard case .flowControlCreditIndication(let credit) = c else { Issue.record("\(c)"); return }
        #expect(credit.cid == 0x0040)
        #expect(credit.credits == 5)
        #expect(c.description == "Flow Control Credit Indication CID 0x0040 credits 5")
    }

    @Test("Credit Based Connection Request and Response (enhanced, up to five channels)")
    func creditBasedConnection() throws {
        // 17 Code | 03 Identifier | 0e 00 Length 14 | 27 00 SPSM 0x0027 (EATT) | 40 00 MTU 64 |
        // 40 00 MPS 64 | 05 00 Initial Credits 5 | 40 00 41 00 42 00 Source CIDs 0x0040, 0x0041, 0x0042
        let (_, c) = try decode("17 03 0e 00 27 00 40 00 40 00 05 00 40 00 41 00 42 00")
        guard case .creditBasedConnectionRequest(let request) = c else { Issue.record("\(c)"); return }
        #expect(request.spsm == 0x0027)
        #expect(request.mtu == 64)
        #expect(request.mps == 64)
        #expect(request.initialCredits == 5)
        #expect(request.sourceCIDs == [0x0040, 0x0041, 0x0042])
        #expect(c.description == "Credit Based Connection Request SPSM 0x0027 MTU 64 octets MPS 64 octets initial credits 5 source CIDs 0x0040, 0x0041, 0x0042")

        // 18 Code | 03 Identifier | 0e 00 Length 14 | 40 00 MTU 64 | 40 00 MPS 64 | 05 00 Initial Credits 5 |
        // 00 00 Result: All connections successful | 50 00 51 00 52 00 Destination CIDs
        let (_, r) = try decode("18 03 0e 00 40 00 40 00 05 00 00 00 50 00 51 00 52 00")
        guard case .creditBasedConnectionResponse(let response) = r else { Issue.record("\(r)"); return }
        #expect(response.mtu == 64)
        #expect(response.mps == 64)
        #expect(response.initialCredits == 5)
        #expect(response.result == .allSuccessful)
        #expect(response.destinationCIDs == [0x0050, 0x0051, 0x0052])
        #expect(r.description == "Credit Based Connection Response MTU 64 octets MPS 64 octets initial credits 5 result All connections successful (0x0000) destination CIDs 0x0050, 0x0051, 0x0052")
        #expect(L2CAPCreditBasedConnectionResponse.Result.pendingAuthentication.description
                == "All connections pending - authentication pending (0x000e)")
        #expect(L2CAPCreditBasedConnectionResponse.Result(rawValue: 0x0010).name == nil)
    }

    @Test("Credit Based Reconfigure Request and Response")
    func creditBasedReconfigure() throws {
        // 19 Code | 04 Identifier | 08 00 Length 8 | 00 01 MTU 256 | 00 01 MPS 256 | 40 00 41 00 Destination CIDs
        let (_, c) = try decode("19 04 08 00 00 01 00 01 40 00 41 00")
        guard case .creditBasedReconfigureRequest(let request) = c else { Issue.record("\(c)"); return }
        #expect(request.mtu == 256)
        #expect(request.mps == 256)
        #expect(request.destinationCIDs == [0x0040, 0x0041])
        #expect(c.description == "Credit Based Reconfigure Request MTU 256 octets MPS 256 octets destination CIDs 0x0040, 0x0041")

        // 1a Code | 04 Identifier | 02 00 Length 2 | 01 00 Result: MTU reduction not allowed
        let (_, r) = try decode("1a 04 02 00 01 00")
        guard case .creditBasedReconfigureResponse(let response) = r else { Issue.record("\(r)"); return }
        #expect(response.result == .mtuReductionNotAllowed)
        #expect(r.description == "Credit Based Reconfigure Response Reconfiguration failed - reduction in size of MTU not allowed (0x0001)")
    }

    @Test("codes not parsed on LE are kept raw: BR/EDR-only and reserved")
    func unknownCodes() throws {
        // 0a Information Request (BR/EDR only) | 07 Identifier | 02 00 Length 2 | 02 00 InfoType
        let (p, c) = try decode("0a 07 02 00 02 00")
        #expect(c == .unknown(code: .informationRequest, data: [0x02, 0x00]))
        #expect(!p.code.isAllowedOnLE)
        #expect(c.isRequest)
        #expect(c.description == "Information Request (0x0a) (not allowed on LE), data 0200")
        // 0c: reserved (was an AMP command), no data
        let (_, reserved) = try decode("0c 08 00 00")
        #expect(reserved == .unknown(code: L2CAPSignalingCode(rawValue: 0x0C), data: []))
        #expect(reserved.description == "signaling code 0x0c, no data")
        #expect(LESignalingPacket(identifier: 8, command: reserved).encoded == octets("0c 08 00 00"))
    }

    @Test("round trip for every command: decode then encode gives the fixture, encode then decode the value",
          arguments: signalingFixtures)
    func roundTrip(_ fixture: SignalingFixture) throws {
        let bytes = octets(fixture.hex)
        let packet = try LESignalingPacket(decoding: bytes)
        #expect(try packet.command() == fixture.command)
        #expect(packet.identifier == fixture.identifier)
        #expect(packet.encoded == bytes)
        let built = LESignalingPacket(identifier: fixture.identifier, command: fixture.command)
        #expect(built.encoded == bytes)
        #expect(try LESignalingPacket(decoding: built.encoded).command() == fixture.command)
        #expect(try LESignalingCommand(code: fixture.command.code, data: fixture.command.encodedData) == fixture.command)
        #expect(built.frame.channelID == .leSignaling)
        #expect(built.frame.payload == bytes)
    }

    @Test("every command truncated at every data length: the exact field and offset", arguments: signalingFixtures)
    func truncated(_ fixture: SignalingFixture) throws {
        let bytes = octets(fixture.hex)
        let fixedEnd = fixture.fields.map { $0.offset + $0.size }.max() ?? 4
        for length in 4..<fixedEnd {
            // A packet whose Length agrees with its short data: the command decoder must find the gap.
            let packet = LESignalingPacket(code: fixture.command.code, identifier: fixture.identifier,
                                           data: Array(bytes[4..<length]))
            let expected = L2CAPSignalingError(code: fixture.command.code,
                                               underlying: expectedTruncation(at: length, of: fixture.fields))
            #expect(throws: expected) { _ = try packet.command() }
            // The same short packet decodes at the packet level: its Length is consistent.
            #expect(try LESignalingPacket(decoding: packet.encoded) == packet)
        }
    }

    @Test("one octet after the last field: trailing for fixed layouts, half a CID for lists")
    func trailing() {
        for fixture in signalingFixtures {
            let data = fixture.command.encodedData
            let packet = LESignalingPacket(code: fixture.command.code, identifier: 1, data: data + [0xFF])
            let code = fixture.command.code
            switch fixture.command {
            case .commandReject:
                // Reason Data takes every octet that is left.
                #expect(throws: Never.self) { _ = try packet.command() }
            case .creditBasedConnectionRequest, .creditBasedConnectionResponse, .creditBasedReconfigureRequest:
                let field = code == .creditBasedConnectionRequest ? "Source CID" : "Destination CID"
                #expect(throws: L2CAPSignalingError(code: code, underlying: .truncated(
                    field: field, offset: 4 + data.count, needed: 2, available: 1))) { _ = try packet.command() }
            default:
                #expect(throws: L2CAPSignalingError(code: code, underlying: .unexpectedTrailingOctets(
                    offset: 4 + data.count, count: 1))) { _ = try packet.command() }
            }
        }
    }

    @Test("CID lists: none, and the most the spec allows")
    func cidLists() throws {
        let none = LESignalingCommand.creditBasedReconfigureRequest(.init(mtu: 64, mps: 64, destinationCIDs: []))
        #expect(none.encodedData == octets("40 00 40 00"))
        #expect(try LESignalingCommand(code: .creditBasedReconfigureRequest, data: octets("40 00 40 00")) == none)
        #expect(none.description.hasSuffix("destination CIDs none"))
        let five = L2CAPCreditBasedConnectionRequest(spsm: 0x27, mtu: 64, mps: 64, initialCredits: 1,
                                                      sourceCIDs: [0x40, 0x41, 0x42, 0x43, 0x44])
        let packet = LESignalingPacket(identifier: 9, command: .creditBasedConnectionRequest(five))
        #expect(packet.data.count == 18)
        #expect(try packet.command() == .creditBasedConnectionRequest(five))
    }

    @Test("signaling codes name every command of Table 4.2 and keep unknown codes raw")
    func codes() {
        #expect(L2CAPSignalingCode.connectionParameterUpdateRequest.description == "Connection Parameter Update Request (0x12)")
        #expect(L2CAPSignalingCode.creditBasedReconfigureResponse.description == "Credit Based Reconfigure Response (0x1a)")
        #expect(L2CAPSignalingCode(rawValue: 0x1B).description == "signaling code 0x1b")
        let le: [UInt8] = [0x01, 0x06, 0x07, 0x12, 0x13, 0x14, 0x15, 0x16, 0x17, 0x18, 0x19, 0x1A]
        for raw in UInt8(0)...0x20 {
            #expect(L2CAPSignalingCode(rawValue: raw).isAllowedOnLE == le.contains(raw))
        }
        #expect(signalingFixtures.map(\.command.code.rawValue) == le)
    }
}
