import BLECore
import Testing
@testable import HCI

@Suite("LE Advertising Set Terminated (Vol 4, Part E, 7.7.65.18)")
struct AdvertisingSetTerminatedTests {
    @Test("a connection ended the set: the handles, annotated")
    func connectionCreated() throws {
        let event = hex("""
            3e 06   # LE Meta, Parameter_Total_Length 6
            12      # Subevent_Code LE Advertising Set Terminated
            00      # Status: Success (a connection was created)
            01      # Advertising_Handle 0x01
            40 00   # Connection_Handle 0x0040
            00      # Num_Completed_Extended_Advertising_Events 0
            """)
        let decoded = try HCIEvent(decoding: event)
        guard case .leMeta(let meta) = decoded else { Issue.record("not LE Meta"); return }
        #expect(meta.subeventCode == .advertisingSetTerminated)
        let terminated = try LEMetaEvent.AdvertisingSetTerminated(decoding: meta.subeventParameters)
        #expect(terminated.status == .success)
        #expect(terminated.advertisingHandle == 0x01)
        #expect(terminated.connectionHandle == 0x0040)
        #expect(terminated.numCompletedExtendedAdvertisingEvents == 0)
        #expect(terminated.packet.encoded == event)
        #expect(terminated.description == "LE Advertising Set Terminated status=Success advertising_handle=0x01 "
                + "connection_handle=0x0040 num_completed_extended_advertising_events=0")
    }

    @Test("round trip, truncation at every length, trailing octets")
    func roundTrip() throws {
        // Status 0x43 Limit Reached, Advertising_Handle 0x00, Connection_Handle 0x0000, 10 events
        try expectRoundTrip(LEMetaEvent.AdvertisingSetTerminated.self, hex("43 00 0000 0a"))
        #expect(throws: BLEDecodingError.unexpectedTrailingOctets(offset: 5, count: 1)) {
            _ = try LEMetaEvent.AdvertisingSetTerminated(decoding: hex("00 00 4000 00 ff"))
        }
    }
}
