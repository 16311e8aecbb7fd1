import BLECore
import HCI
import Testing

/// Events read as a host acts on them (``HCIEvent/decodingPastTrailingOctets(_:)``): octets
/// after the last parameter are left out, every other fault is still refused.
@Suite("HCI events read past trailing octets")
struct EventTrailingOctetsTests {
    static func packet(_ text: String) throws -> HCIEventPacket {
        try HCIEventPacket(decoding: hex(text))
    }

    @Test("a well-formed event decodes as the strict decoder decodes it, with nothing left out")
    func wellFormedUnchanged() throws {
        let packet = try Self.packet("05 04 00 4000 13")
        let read = try HCIEvent.decodingPastTrailingOctets(packet)
        #expect(read.event == (try HCIEvent(packet: packet)))
        #expect(read.trailingOctets == 0)
    }

    @Test("a Disconnection Complete with octets after its Reason keeps its fields, and says how many were left out")
    func disconnectionCompleteWithTrailingOctets() throws {
        let packet = try Self.packet("05 06 00 4000 13 aa bb")
        #expect(throws: BLEDecodingError.unexpectedTrailingOctets(offset: 6, count: 2)) { _ = try HCIEvent(packet: packet) }
        let read = try HCIEvent.decodingPastTrailingOctets(packet)
        guard case .disconnectionComplete(let complete) = read.event else { Issue.record("not Disconnection Complete"); return }
        #expect(complete.connectionHandle == 0x0040)
        #expect(complete.reason == .remoteUserTerminatedConnection)
        #expect(read.trailingOctets == 2)
    }

    @Test("a Number Of Completed Packets with an octet after its last entry keeps every entry's credits")
    func numberOfCompletedPacketsWithTrailingOctet() throws {
        let read = try HCIEvent.decodingPastTrailingOctets(try Self.packet("13 0a 02 4000 0300 4100 0100 00"))
        guard case .numberOfCompletedPackets(let completed) = read.event else { Issue.record("not Number Of Completed Packets"); return }
        #expect(completed.entries.map(\.connectionHandle) == [0x0040, 0x0041])
        #expect(completed.entries.map(\.numCompletedPackets) == [3, 1])
        #expect(read.trailingOctets == 1)
    }

    @Test("an LE Meta subevent with octets after its last parameter decodes, its offsets counted from the event packet")
    func leMetaWithTrailingOctets() throws {
        // LE Connection Complete: Success, 0x0040, peripheral, random F0:33:22:11:A2:C3, 30 ms, 0, 420 ms, then 3 octets.
        let packet = try Self.packet("3e 16 01 00 4000 01 01 c3a2112233f0 1800 0000 2a00 00 010203")
        #expect(throws: BLEDecodingError.unexpectedTrailingOctets(offset: 21, count: 3)) { _ = try HCIEvent(packet: packet) }
        let read = try HCIEvent.decodingPastTrailingOctets(packet)
        guard case .leMeta(.connectionComplete(let complete)) = read.event else { Issue.record("not LE Connection Complete"); return }
        #expect(complete.connectionHandle == 0x0040)
        #expect(read.trailingOctets == 3)
    }

    @Test("a parameter cut short is still refused, with the strict decoder's error")
    func truncatedStillRefused() throws {
        // Num_Handles 2 but one entry.
        let short = try Self.packet("13 05 02 4000 0300")
        let strict = #expect(throws: BLEDecodingError.self) { _ = try HCIEvent(packet: short) }
        let lenient = #expect(throws: BLEDecodingError.self) { _ = try HCIEvent.decodingPastTrailingOctets(short) }
        #expect(strict == lenient)
        // Reason missing.
        #expect(throws: BLEDecodingError.truncated(field: "Reason", offset: 5, needed: 1, available: 0)) {
            _ = try HCIEvent.decodingPastTrailingOctets(try Self.packet("05 03 00 4000"))
        }
    }
}
