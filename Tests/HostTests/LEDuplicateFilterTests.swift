import BLECore
@testable import HCI
@testable import Host
import Testing

@Suite("LEDuplicateFilter: the host's half of Filter_Duplicates")
struct LEDuplicateFilterTests {
    private func advertisement(_ address: UInt64, data: [UInt8], rssi: Int8 = -60, connectable: Bool = true) -> Advertisement {
        var advertisement = Advertisement(key: AdvertiserKey(address: BluetoothAddress(address), addressType: .public))
        advertisement.advertisingData = AdvertisingData(decoding: data)
        advertisement.isConnectable = connectable
        advertisement.rssi = rssi
        return advertisement
    }

    @Test("same content is a duplicate whatever the RSSI; new data or a new advertising type passes")
    func content() {
        var filter = LEDuplicateFilter()
        let admitted = [
            filter.admit(advertisement(1, data: [0x02, 0x01, 0x06])),
            filter.admit(advertisement(1, data: [0x02, 0x01, 0x06], rssi: -40)),             // RSSI only
            filter.admit(advertisement(1, data: [0x02, 0x01, 0x06], connectable: false)),    // the type
            filter.admit(advertisement(1, data: [0x02, 0x01, 0x04], connectable: false)),    // the data
            filter.admit(advertisement(2, data: [0x02, 0x01, 0x04], connectable: false)),    // another advertiser
        ]
        #expect(admitted == [true, false, true, true, true])
    }

    @Test("an advertiser that keeps changing stays the newest: the oldest other one is forgotten first")
    func changingAdvertiser() {
        var filter = LEDuplicateFilter(capacity: 3)
        var admitted = [1, 2, 3].map { filter.admit(advertisement($0, data: [0x02, 0x01, 0x06])) }
        for n in 0..<500 {           // 1 changes its data 500 times: each is new, and 1 is the newest
            admitted.append(filter.admit(advertisement(1, data: [0x03, 0xFF, UInt8(n & 0xFF), UInt8(n >> 8)])))
        }
        admitted.append(filter.admit(advertisement(4, data: [0x02, 0x01, 0x06])))   // forgets 2, the oldest
        admitted.append(filter.admit(advertisement(3, data: [0x02, 0x01, 0x06])))   // still known
        admitted.append(filter.admit(advertisement(2, data: [0x02, 0x01, 0x06])))   // forgotten: passes (forgets 3)
        #expect(admitted == [true, true, true] + [Bool](repeating: true, count: 500) + [true, false, true])
    }

    @Test("an empty scan response adds nothing; one with AD structures is new")
    func emptyScanResponse() {
        var filter = LEDuplicateFilter()
        var withResponse = advertisement(1, data: [0x02, 0x01, 0x06])
        let first = filter.admit(withResponse)
        withResponse.scanResponseData = .empty
        let empty = filter.admit(withResponse)
        withResponse.scanResponseData = AdvertisingData(decoding: [0x04, 0x09, 0x48, 0x52, 0x4d])
        let named = filter.admit(withResponse)
        #expect([first, empty, named] == [true, false, true])
    }

    @Test("bounded: past capacity the advertiser let through longest ago is forgotten, and passes again")
    func capacity() {
        var filter = LEDuplicateFilter(capacity: 2)
        let flags = [UInt8]([0x02, 0x01, 0x06])
        let admitted = [1, 2, 3, 3, 2, 1, 2].map { filter.admit(advertisement($0, data: flags)) }
        // 3 makes the filter forget 1, then 1 makes it forget 2.
        #expect(admitted == [true, true, true, false, false, true, true])
        #expect(LEDuplicateFilter(capacity: 0).capacity == 1)
    }
}
