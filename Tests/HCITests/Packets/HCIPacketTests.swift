import BLECore
import HCI
import Testing

/// H4 framing of every packet type (Core v5.4, Vol 4, Part A, 2).
@Suite("H4 packets")
struct HCIPacketTests {
    @Test("an H4 event: indicator 0x04, then the event packet")
    func event() throws {
        // nexxtender btsnoop #2: Command Complete for Reset
        let frame = hex("""
            04      # HCI packet indicator: Event
            0e 04   # Event_Code Command Complete, Parameter_Total_Length 4
            01 03 0c 00
            """)
        let packet = try HCIPacket(h4: frame)
        #expect(packet == .event(HCIEventPacket(code: .commandComplete, parameters: hex("01 03 0c 00"))))
        #expect(packet.type == .event)
        #expect(packet.payload == Array(frame.dropFirst()))
        #expect(packet.h4Encoded == frame)
    }

    @Test("an H4 command, ACL, SCO and ISO packet round trip")
    func everyType() throws {
        let frames: [(HCIPacketType, [UInt8])] = [
            (.command, hex("01  0c 20 02 01 00")),   // LE Set Scan Enable
            (.acl, hex("02  40 20 07 00  03 00 04 00 0a 03 00")),   // handle 0x040, PB 10, ATT Read Request
            (.sco, hex("03  01 30 02  aa bb")),   // handle 0x001, Packet_Status_Flag 0b11
            (.iso, hex("05  60 61 05 00  11 22 33 44 55")),   // handle 0x160, PB 0b10 complete, TS 1
        ]
        for (type, frame) in frames {
            let packet = try HCIPacket(h4: frame)
            #expect(packet.type == type)
            #expect(packet.h4Encoded == frame)
            #expect(try HCIPacket(type: type, payload: Array(frame.dropFirst())) == packet)
        }
    }

    @Test("ACL header fields through H4")
    func acl() throws {
        guard case .acl(let acl) = try HCIPacket(h4: hex("02 40 20 07 00 03 00 04 00 0a 03 00")) else { Issue.record("not ACL"); return }
        #expect(acl.handle == 0x040)
        #expect(acl.packetBoundary == .firstFlushable)
        #expect(acl.broadcast == 0)
        #expect(acl.data == hex("03 00 04 00 0a 03 00"))
    }

    @Test("synchronous data: handle, Packet_Status_Flag, reserved bits kept")
    func sco() throws {
        let bytes = hex("""
            01 f0   # Connection_Handle 0x001, Packet_Status_Flag 0b11, RFU 0b11
            02      # Data_Total_Length 2
            aa bb   # Data
            """)
        let sco = try HCISynchronousDataPacket(decoding: bytes)
        #expect(sco.handle == 0x001)
        #expect(sco.packetStatus == 0b11)
        #expect(sco.reservedBits == 0b11)
        #expect(sco.data == [0xAA, 0xBB])
        #expect(sco.encoded == bytes)
        #expect(throws: BLEDecodingError.truncated(field: "Data", offset: 3, needed: 2, available: 1)) {
            _ = try HCISynchronousDataPacket(decoding: hex("01 f0 02 aa"))
        }
    }

    @Test("ISO data: 14-bit length, TS_Flag, reserved bits kept")
    func iso() throws {
        let bytes = hex("""
            60 e1   # Connection_Handle 0x160, PB_Flag 0b10 (complete), TS_Flag 1, RFU 1
            05 c0   # ISO_Data_Load_Length 5, RFU 0b11
            11 22 33 44 55   # ISO_Data_Load (Time_Stamp 0x44332211, then the SDU header's first octet)
            """)
        let iso = try HCIISODataPacket(decoding: bytes)
        #expect(iso.handle == 0x160)
        #expect(iso.packetBoundary == .complete)
        #expect(iso.hasTimestamp)
        #expect(iso.reservedHandleBit == 1)
        #expect(iso.reservedLengthBits == 0b11)
        #expect(iso.dataLoad == hex("11 22 33 44 55"))
        #expect(iso.encoded == bytes)
        #expect(throws: BLEDecodingError.unexpectedTrailingOctets(offset: 9, count: 1)) {
            _ = try HCIISODataPacket(decoding: bytes + [0x00])
        }
    }

    @Test("unknown, missing and truncated indicators; errors at frame offsets")
    func malformed() {
        #expect(throws: BLEDecodingError.invalidValue(field: "HCI packet indicator", offset: 0, reason: "unknown packet indicator 0x07")) {
            _ = try HCIPacket(h4: hex("07 0e 04 01 03 0c 00"))
        }
        #expect(throws: BLEDecodingError.truncated(field: "HCI packet indicator", offset: 0, needed: 1, available: 0)) {
            _ = try HCIPacket(h4: [])
        }
        #expect(throws: BLEDecodingError.invalidValue(field: "HCI packet indicator", offset: 0, reason: "unknown packet indicator 0x00")) {
            _ = try HCIPacket(type: HCIPacketType(rawValue: 0), payload: [])
        }
        // The event says 4 parameter octets; 3 follow. Offsets count from the indicator.
        #expect(throws: BLEDecodingError.truncated(field: "Parameters", offset: 3, needed: 4, available: 3)) {
            _ = try HCIPacket(h4: hex("04 0e 04 01 03 0c"))
        }
        #expect(throws: BLEDecodingError.unexpectedTrailingOctets(offset: 7, count: 1)) {
            _ = try HCIPacket(h4: hex("04 0e 04 01 03 0c 00 00"))
        }
    }
}
