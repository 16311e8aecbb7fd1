import Testing
import BLECore
@testable import L2CAP

@Suite("LE signaling packet header")
struct LESignalingPacketTests {
    // nexxtender .cfa frame 549, the B-frame payload on CID 0x0005:
    //   12      Code: Connection Parameter Update Request
    //   14      Identifier 0x14
    //   08 00   Length 8
    //   24 00 24 00 00 00 c8 00   data
    let real = "12 14 08 00 24 00 24 00 00 00 c8 00"

    @Test("annotated fixture: header fields, data kept raw until command() parses it")
    func fixture() throws {
        let packet = try LESignalingPacket(decoding: octets(real))
        #expect(packet.code == .connectionParameterUpdateRequest)
        #expect(packet.identifier == 0x14)
        #expect(packet.data == octets("24 00 24 00 00 00 c8 00"))
        #expect(packet.encoded == octets(real))
        #expect(packet.frame.encoded == octets("0c 00 05 00") + octets(real))
    }

    @Test("header truncated at every length: Code, Identifier, Length, then Data")
    func truncatedHeader() {
        let bytes = octets(real)
        #expect(throws: L2CAPSignalingError(code: nil, underlying: .truncated(field: "Code", offset: 0, needed: 1, available: 0))) {
            _ = try LESignalingPacket(decoding: [UInt8]())
        }
        let fields = [FieldSpec("Code", 0, 1), FieldSpec("Identifier", 1, 1), FieldSpec("Length", 2, 2), FieldSpec("Data", 4, 8)]
        for length in 1..<bytes.count {
            let expected = L2CAPSignalingError(code: .connectionParameterUpdateRequest,
                                               underlying: expectedTruncation(at: length, of: fields))
            #expect(throws: expected) { _ = try LESignalingPacket(decoding: bytes[..<length]) }
        }
    }

    @Test("exactly one command per LE signaling PDU: a second command is trailing octets")
    func oneCommandPerPDU() {
        // Connection Parameter Update Response followed by a Disconnection Response.
        let two = octets("13 14 02 00 00 00  07 05 04 00 40 00 41 00")
        #expect(throws: L2CAPSignalingError(code: .connectionParameterUpdateResponse,
                                            underlying: .unexpectedTrailingOctets(offset: 6, count: 8))) {
            _ = try LESignalingPacket(decoding: two)
        }
    }

    @Test("errors print the command and the field")
    func errorDescriptions() throws {
        let packet = LESignalingPacket(code: .connectionParameterUpdateRequest, identifier: 1, data: octets("06 00 0c 00 00 00 c8"))
        do {
            _ = try packet.command()
            Issue.record("a 7-octet Connection Parameter Update Request decoded")
        } catch {
            #expect(error.description == "Connection Parameter Update Request (0x12): Timeout at offset 10 needs 2 octets, 1 available")
        }
        #expect(packet.description == "id 0x01 malformed Connection Parameter Update Request (0x12): Timeout at offset 10 needs 2 octets, 1 available")
        #expect(L2CAPSignalingError(code: nil, underlying: .truncated(field: "Code", offset: 0, needed: 1, available: 0)).description
                == "LE signaling: Code at offset 0 needs 1 octet, 0 available")
    }

    @Test("the real capture's malformed 'Information Request' on handle 0x0edc keeps its data raw")
    func androidVendorFrame() throws {
        // nexxtender .cfa frame 251 arrives on handle 0x0EDC, which has no connection: Android's
        // snoop log puts vendor data there, and its "CID" field counts 0x0000, 0x0001, ... so
        // this frame happens to land on 0x0005. Its first octets, as tshark shows them:
        //   0a 20 04 01 00 ...  Code 0x0a, Identifier 0x20, Length 0x0104 ...
        // The header decoder reads it as far as the data allow and never crashes.
        let start = octets("0a 20 04 01 00 99 0f 00")
        #expect(throws: L2CAPSignalingError(code: .informationRequest,
                                            underlying: .truncated(field: "Data", offset: 4, needed: 260, available: 4))) {
            _ = try LESignalingPacket(decoding: start)
        }
    }
}
