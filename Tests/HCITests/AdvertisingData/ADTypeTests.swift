import Testing
import BLECore
@testable import HCI

@Suite("ADType")
struct ADTypeTests {
    @Test("constants carry the assigned values and names (Assigned Numbers 2.3)")
    func constants() {
        #expect(ADType.flags.rawValue == 0x01)
        #expect(ADType.flags.name == "Flags")
        #expect(ADType.completeLocalName.rawValue == 0x09)
        #expect(ADType.completeLocalName.name == "Complete Local Name")
        #expect(ADType.serviceSolicitationUUIDs32.rawValue == 0x1F)
        #expect(ADType.serviceSolicitationUUIDs128.rawValue == 0x15)
        #expect(ADType.advertisingIntervalLong.name == "Advertising Interval - long")
        #expect(ADType.manufacturerSpecificData.name == "Manufacturer Specific Data")
    }

    @Test("description names assigned types and keeps unknown ones raw")
    func description() {
        #expect(ADType.flags.description == "Flags (0x01)")
        #expect(ADType(0x3F).name == nil)
        #expect(ADType(0x3F).description == "AD type 0x3F")
        #expect(ADType(rawValue: 0xEE).rawValue == 0xEE)
    }

    @Test("data layouts follow the Supplement's sizes")
    func layouts() {
        #expect(ADType.flags.dataLayout == .any)
        #expect(ADType.txPowerLevel.dataLayout == .exactly(1))
        #expect(ADType.appearance.dataLayout == .exactly(2))
        #expect(ADType.peripheralConnectionIntervalRange.dataLayout == .exactly(4))
        #expect(ADType.advertisingIntervalLong.dataLayout == .either(3, 4))
        #expect(ADType.incompleteServiceUUIDs16.dataLayout == .multiple(of: 2))
        #expect(ADType.serviceSolicitationUUIDs32.dataLayout == .multiple(of: 4))
        #expect(ADType.completeServiceUUIDs128.dataLayout == .multiple(of: 16))
        #expect(ADType.randomTargetAddress.dataLayout == .multiple(of: 6))
        #expect(ADType.manufacturerSpecificData.dataLayout == .atLeast(2))
        #expect(ADType.serviceData128.dataLayout == .atLeast(16))
        #expect(ADType.completeLocalName.dataLayout == .any)
        #expect(ADType(0x3F).dataLayout == .any)
        #expect(ADDataLayout.multiple(of: 2).accepts(0))
        #expect(!ADDataLayout.multiple(of: 2).accepts(3))
        #expect(ADDataLayout.either(3, 4).accepts(4))
        #expect(!ADDataLayout.either(3, 4).accepts(2))
        #expect(ADDataLayout.atLeast(2).description == "at least 2 octets")
    }
}
