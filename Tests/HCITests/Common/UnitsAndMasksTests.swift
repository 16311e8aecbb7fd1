import BLECore
import HCI
import Testing

@Suite("Durations, PHYs and bit masks")
struct UnitsAndMasksTests {
    @Test("durations print in milliseconds with the fraction their unit needs")
    func durations() {
        #expect(LESlotDuration(rawValue: 0x0800).description == "1280 ms")
        #expect(LESlotDuration(rawValue: 0x0012).description == "11.25 ms")
        #expect(LESlotDuration(rawValue: 1).description == "0.625 ms")
        #expect(LEConnectionInterval(rawValue: 6).description == "7.5 ms")
        #expect(LEConnectionInterval(rawValue: 0x0C80).description == "4000 ms")
        #expect(LESupervisionTimeout(rawValue: 10).description == "100 ms")
        #expect(HCIDuration<HCITimeUnit1280ms>(rawValue: 1).description == "1280 ms")
        #expect(HCIDuration<HCITimeUnit1us>(rawValue: 2120).description == "2120 µs")
        #expect(LEExtendedAdvertisingInterval(rawValue: 0x20).description == "20 ms")
        #expect(LEConnectionInterval(rawValue: 24).duration == .milliseconds(30))
    }

    @Test("durations from milliseconds round to the nearest unit and refuse what two octets cannot hold")
    func fromMilliseconds() {
        #expect(LEConnectionInterval(milliseconds: 30)?.rawValue == 24)
        #expect(LEConnectionInterval(milliseconds: 30.6)?.rawValue == 24)
        #expect(LESlotDuration(milliseconds: 100)?.rawValue == 160)
        #expect(LESupervisionTimeout(milliseconds: 655_350)?.rawValue == 0xFFFF)
        #expect(LESupervisionTimeout(milliseconds: 655_360) == nil)
        #expect(LESupervisionTimeout(milliseconds: -10) == nil)
        #expect(LEConnectionInterval(rawValue: 6) < LEConnectionInterval(rawValue: 7))
    }

    @Test("LE features by name, unknown bits by number")
    func leFeatures() {
        let features = LEFeatures(rawValue: 1 << 0 | 1 << 12 | 1 << 62)
        #expect(features.description == "LE Encryption, LE Extended Advertising, bit 62")
        #expect(LEFeatures.name(ofBit: 11) == "LE Coded PHY")
        #expect(LEFeatures().description == "none")
    }

    @Test("PHYs and PHY bit masks")
    func phys() {
        #expect(LEPHY.leCoded.description == "LE Coded")
        #expect(LEPHY(rawValue: 4).description == "PHY 0x04")
        #expect(LEPHYs(rawValue: 0x07).description == "LE 1M, LE 2M, LE Coded")
        #expect(LEPHYs(rawValue: 0x07).count == 3)
        #expect(LEPHYs(rawValue: 0x09).description == "LE 1M, bit 3")
        #expect(LEAdvertisingChannelMap.all.description == "37, 38, 39")
        #expect(LEAdvertisingEventProperties.legacyAdvInd.rawValue == 0x0013)
        #expect(LEAdvertisingEventProperties.legacyAdvInd.description == "connectable, scannable, legacy")
    }

    @Test("event masks follow Event_Code and Subevent_Code minus one")
    func eventMasks() {
        #expect(HCIEventMask.disconnectionComplete.rawValue == 1 << 4)
        #expect(HCIEventMask.hardwareError.rawValue == 1 << 15)
        #expect(HCIEventMask.encryptionKeyRefreshComplete.rawValue == 1 << 47)
        #expect(HCIEventMask(enabling: .encryptionChangeV2).rawValue == 0)   // 0x59: on page 2, not here
        #expect(LEEventMask.extendedAdvertisingReport.rawValue == 1 << 12)
        #expect(LEEventMask.enhancedConnectionCompleteV2.rawValue == 1 << 40)
        #expect(LEEventMask(rawValue: 0x03).description == "LE Connection Complete, LE Advertising Report")
        // Bits 24 to 29, as Linux 6.1 sets them on an ISO-capable controller (the kernel lane's capture).
        #expect(LEEventMask(rawValue: 0x3F << 24).description == "LE CIS Established [v1], LE CIS Request, "
            + "LE Create BIG Complete, LE Terminate BIG Complete, LE BIG Sync Established, LE BIG Sync Lost")
        #expect(LEEventMask(rawValue: 1 << 41).description == "bit 41")
        #expect(HCIEventMask(rawValue: 1 << 13 | 1 << 4).description == "Disconnection Complete, bit 13")
    }

    @Test("enumerations keep unknown values raw and say so")
    func rawEnumerations() {
        #expect(LEOwnAddressType(rawValue: 9).description == "own address type 0x09")
        #expect(LERole(rawValue: 2).description == "role 0x02")
        #expect(LEClockAccuracy(rawValue: 8).partsPerMillion == nil)
        #expect(LEScanType(rawValue: 2).rawValue == 2)
        #expect(HCIEvent.EncryptionChange.EncryptionEnabled(rawValue: 0x02).description == "on (AES-CCM, BR/EDR)")
        #expect(LEMetaSubeventCode(rawValue: 0x29).description == "LE Enhanced Connection Complete [v2]")
    }
}

@Suite("Descriptions")
struct DescriptionTests {
    @Test("dBm fields print 127 as not available")
    func dBm() {
        let report = LEExtendedAdvertisingReport(eventType: .init(rawValue: 0x10), addressType: .random,
                                                 address: BluetoothAddress(0x02_7EF8_8A3C_56), rssi: -55, data: [])
        #expect(report.fieldsDescription.contains("tx_power=127 (n/a) rssi=-55 dBm"))
    }

    @Test("names of common commands this package does not decode")
    func commonCommandNames() {
        #expect(HCIOpcode(rawValue: 0x0C14).description == "Read Local Name")
        #expect(HCIOpcode(rawValue: 0x0C1A).description == "Write Scan Enable")
        #expect(HCIOpcode(rawValue: 0x100B).description == "Read Local Supported Codecs [v1]")
    }
}
