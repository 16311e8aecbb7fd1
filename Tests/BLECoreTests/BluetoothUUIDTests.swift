import Testing
import BLECore

@Suite("BluetoothUUID")
struct BluetoothUUIDTests {
    @Test("16-, 32- and 128-bit forms of one UUID are equal and hash alike")
    func equalityAcrossWidths() throws {
        let u16 = try #require(BluetoothUUID("180D"))
        let u32 = try #require(BluetoothUUID("0000180D"))
        let u128 = try #require(BluetoothUUID("0000180D-0000-1000-8000-00805F9B34FB"))
        #expect(u16 == u32 && u32 == u128)
        #expect(Set([u16, u32, u128]).count == 1)
        #expect(u16.width == .bits16 && u32.width == .bits32 && u128.width == .bits128)
        #expect(u128.uuid16 == 0x180D)
        #expect(u128.shortest.width == .bits16)
    }

    @Test("text forms")
    func text() throws {
        #expect(BluetoothUUID("0x2a37") == BluetoothUUID(0x2A37))
        #expect(BluetoothUUID(0x180D).description == "180D")
        #expect(BluetoothUUID(uuid32: 0x1234_5678).description == "12345678")
        #expect(BluetoothUUID(0x180D).uuidString == "0000180D-0000-1000-8000-00805F9B34FB")
        let vendor = try #require(BluetoothUUID("fd47416a-95fb-4206-88b5-b4a8045f75c1"))
        #expect(vendor.description == "FD47416A-95FB-4206-88B5-B4A8045F75C1")
        #expect(vendor.uuid16 == nil && vendor.name == nil)
        #expect(BluetoothUUID("fd47416a95fb420688b5b4a8045f75c1") == vendor)
        for bad in ["", "18D", "180DX", "0000180D-0000-1000-8000-00805F9B34F", "0000180D00-00-1000-8000-00805F9B34FB", "xyzw"] {
            #expect(BluetoothUUID(bad) == nil, "\(bad)")
        }
    }

    @Test("wire octets are least significant first in the UUID's own width")
    func wire() throws {
        #expect(BluetoothUUID(0x180D).littleEndianOctets == [0x0D, 0x18])
        let u = BluetoothUUID("0000180D-0000-1000-8000-00805F9B34FB")!
        #expect(u.littleEndianOctets == [0xFB, 0x34, 0x9B, 0x5F, 0x80, 0x00, 0x00, 0x80,
                                         0x00, 0x10, 0x00, 0x00, 0x0D, 0x18, 0x00, 0x00])
        #expect(BluetoothUUID(littleEndianOctets: u.littleEndianOctets) == u)
        #expect(BluetoothUUID(littleEndianOctets: [0x0D, 0x18, 0x00]) == nil)
        // A slice reads in place from its own start; other collections read the same.
        let framed: [UInt8] = [0xEE] + u.littleEndianOctets + [0xEE]
        #expect(BluetoothUUID(littleEndianOctets: framed[1...16]) == u)
        #expect(BluetoothUUID(littleEndianOctets: framed[1...16])?.width == .bits128)
        #expect(BluetoothUUID(littleEndianOctets: [0xEE, 0x0D, 0x18][1...]) == BluetoothUUID(0x180D))
        #expect(BluetoothUUID(littleEndianOctets: [0x78, 0x56, 0x34, 0x12].reversed().reversed()) == BluetoothUUID(uuid32: 0x1234_5678))
        #expect(BluetoothUUID(littleEndianOctets: [0x78, 0x56, 0x34, 0x12])?.width == .bits32)
        #expect(BluetoothUUID(littleEndianOctets: [UInt8]()) == nil)
        var r = ByteReader([0x78, 0x56, 0x34, 0x12])
        let u32 = try BluetoothUUID(from: &r, width: .bits32)
        #expect(u32.uuid32 == 0x1234_5678 && u32.uuid16 == nil)
    }

    @Test("SIG names from the generated assigned numbers")
    func names() {
        #expect(BluetoothUUID(0x180D).name == "Heart Rate")
        #expect(BluetoothUUID(0x2A37).name == "Heart Rate Measurement")
        #expect(BluetoothUUID(0x2902).name == "Client Characteristic Configuration")
        #expect(BluetoothUUID(0x2800).name == "Primary Service")
        #expect(BluetoothUUID("0000180D-0000-1000-8000-00805F9B34FB")!.name == "Heart Rate")
        #expect(BluetoothUUID(0x180D).descriptionWithName == "180D (Heart Rate)")
        var out = TextOutput()
        out.write("UUIDs ")
        BluetoothUUID(0x180D).writeDescriptionWithName(to: &out)
        BluetoothUUID(0xFFF0).writeDescriptionWithName(to: &out)
        BluetoothUUID(uuid32: 0x180F).writeDescriptionWithName(to: &out)
        #expect(out.string == "UUIDs 180D (Heart Rate)FFF00000180F (Battery)")
        #expect(AssignedNumbers.companyName(0x004C) == "Apple, Inc.")
        #expect(AssignedNumbers.adTypeName(0x09) == "Complete Local Name")
        #expect(AssignedNumbers.appearanceName(0x0341) == "Heart Rate Sensor: Heart Rate Belt")
        #expect(AssignedNumbers.appearanceName(0x0340) == "Heart Rate Sensor")
        #expect(AssignedNumbers.unitName(0x272F) == "Celsius temperature (degree Celsius)")
        #expect(AssignedNumbers.serviceName(0xFEAA) != nil)
    }
}

@Suite("AssignedNumbers")
struct AssignedNumbersTests {
    @Test("URI scheme names, with 0x0001 as the empty scheme name")
    func uriSchemes() {
        #expect(AssignedNumbers.uriSchemeName(0x0001) == "")
        #expect(AssignedNumbers.uriSchemeName(0x0016) == "http:")
        #expect(AssignedNumbers.uriSchemeName(0x0017) == "https:")
        #expect(AssignedNumbers.uriSchemeName(0xFFFF) == nil)
        #expect(AssignedNumbers.sourceVersion == "bluetooth-sig 0.6.0")
    }
}
