import HCI
import Testing

@Suite("HCI status and error codes")
struct HCIStatusTests {
    @Test("every code of Vol 1, Part F, 1.3 has its name; reserved codes have none")
    func names() {
        var named = 0
        for raw in UInt8(0)...0xFF {
            let status = HCIStatus(rawValue: raw)
            let expectedNamed = raw <= 0x47 && ![0x2B, 0x31, 0x33].contains(raw)   // reserved
            #expect((status.name != nil) == expectedNamed, "0x\(String(raw, radix: 16))")
            if status.name != nil { named += 1 }
        }
        #expect(named == 0x48 - 3)
    }

    @Test("names and descriptions of well-known codes")
    func wellKnown() {
        #expect(HCIStatus.success.description == "Success")
        #expect(HCIStatus.success.isSuccess)
        #expect(!HCIStatus.commandDisallowed.isSuccess)
        #expect(HCIStatus(rawValue: 0x13) == .remoteUserTerminatedConnection)
        #expect(HCIStatus.remoteUserTerminatedConnection.description == "Remote User Terminated Connection (0x13)")
        #expect(HCIStatus.connectionTerminatedByLocalHost.name == "Connection Terminated By Local Host")
        #expect(HCIStatus.connectionTimeout.rawValue == 0x08)
        #expect(HCIStatus.unknownAdvertisingIdentifier.rawValue == 0x42)
        #expect(HCIStatus.tooEarly.name == "Too Early")
        #expect(HCIStatus(rawValue: 0x2B).description == "reserved (0x2B)")
        #expect(HCIStatus(rawValue: 0x99).description == "reserved (0x99)")
    }
}
