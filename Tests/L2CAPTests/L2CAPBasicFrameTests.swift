import Testing
import BLECore
@testable import L2CAP

@Suite("L2CAP basic frame (B-frame) and channel IDs")
struct L2CAPBasicFrameTests {
    // Real frame: nexxtender_charger_android_gatt_longwrite_indications_extadv.cfa, frame 939
    // (phone -> charger), the B-frame inside the ACL packet.
    //   07 00   Length 7 (information payload octets)
    //   06 00   Channel ID 0x0006 (SMP)
    //   01 04 00 2d 10 0f 0f   Pairing Request, kept raw at this layer
    let smpFrame = "07 00 06 00 01 04 00 2d 10 0f 0f"

    @Test("annotated fixture: a real SMP Pairing Request B-frame")
    func fixture() throws {
        let frame = try L2CAPBasicFrame(decoding: octets(smpFrame))
        #expect(frame.channelID == .smp)
        #expect(frame.payload == [0x01, 0x04, 0x00, 0x2D, 0x10, 0x0F, 0x0F])
        #expect(frame.description == "L2CAP SMP (0x0006), 7 octets")
    }

    @Test("round trip: decode then encode gives the fixture; encode then decode gives the value")
    func roundTrip() throws {
        let bytes = octets(smpFrame)
        #expect(try L2CAPBasicFrame(decoding: bytes).encoded == bytes)
        for payload in [[UInt8](), [0x0A, 0x01, 0x00], [UInt8](repeating: 0xEE, count: 517)] {
            let frame = L2CAPBasicFrame(channelID: .att, payload: payload)
            let again = try L2CAPBasicFrame(decoding: frame.encoded)
            #expect(again == frame)
            #expect(again.encoded == frame.encoded)
        }
        // An empty payload is a legal B-frame of 4 octets.
        #expect(L2CAPBasicFrame(channelID: .leSignaling, payload: []).encoded == [0x00, 0x00, 0x05, 0x00])
    }

    @Test("truncated at every length: the exact field and offset")
    func truncatedEverywhere() {
        let bytes = octets(smpFrame)
        let fields = [FieldSpec("Length", 0, 2), FieldSpec("Channel ID", 2, 2), FieldSpec("Information payload", 4, 7)]
        for length in 0..<bytes.count {
            let expected = expectedTruncation(at: length, of: fields)
            #expect(throws: expected) { _ = try L2CAPBasicFrame(decoding: bytes[..<length]) }
        }
    }

    @Test("Length must match the payload: longer input is trailing octets, shorter is truncation")
    func lengthMismatch() {
        // Length 3 but 4 payload octets.
        #expect(throws: BLEDecodingError.unexpectedTrailingOctets(offset: 7, count: 1)) {
            _ = try L2CAPBasicFrame(decoding: octets("03 00 04 00 0a 01 00 ff"))
        }
        // Length 65535 announces far more than is there.
        #expect(throws: BLEDecodingError.truncated(field: "Information payload", offset: 4, needed: 65535, available: 1)) {
            _ = try L2CAPBasicFrame(decoding: octets("ff ff 04 00 0a"))
        }
    }

    @Test("offsets count from the slice the decoder was given")
    func sliceOffsets() throws {
        let packet = octets("aa bb cc dd") + octets(smpFrame)
        let frame = try L2CAPBasicFrame(decoding: packet[4...])
        #expect(frame.channelID == .smp)
        #expect(throws: BLEDecodingError.truncated(field: "Channel ID", offset: 2, needed: 2, available: 1)) {
            _ = try L2CAPBasicFrame(decoding: packet[4..<7])
        }
    }

    @Test("channel IDs: fixed names, the LE dynamic range, unknown CIDs kept raw")
    func channelIDs() {
        #expect(L2CAPChannelID.att.rawValue == 0x0004)
        #expect(L2CAPChannelID.leSignaling.rawValue == 0x0005)
        #expect(L2CAPChannelID.smp.rawValue == 0x0006)
        #expect(L2CAPChannelID.signaling.rawValue == 0x0001)
        #expect(L2CAPChannelID.brEdrSMP.rawValue == 0x0007)
        #expect(L2CAPChannelID.att.description == "ATT (0x0004)")
        #expect(L2CAPChannelID.leSignaling.description == "LE signaling (0x0005)")
        #expect(L2CAPChannelID.brEdrSMP.description == "BR/EDR SMP (0x0007)")
        #expect(L2CAPChannelID(rawValue: 0x0040).isLEDynamic)
        #expect(L2CAPChannelID(rawValue: 0x007F).isLEDynamic)
        #expect(!L2CAPChannelID(rawValue: 0x0080).isLEDynamic)
        #expect(!L2CAPChannelID(rawValue: 0x003F).isLEDynamic)
        #expect(L2CAPChannelID(rawValue: 0x0041).description == "dynamic (0x0041)")
        #expect(L2CAPChannelID(rawValue: 0x0003).description == "CID 0x0003")
        #expect(L2CAPChannelID(rawValue: 0xBEEF).rawValue == 0xBEEF)
        #expect(L2CAPChannelID.att < L2CAPChannelID.smp)
    }
}
