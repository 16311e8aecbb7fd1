import Testing
import BLECore
@testable import HCI

/// Every description on the advertising line is made by its writer: `description` is the text
/// `writeDescription(to:)` writes into a fresh ``TextOutput``, and the writer, given a line that
/// already holds text, only appends it.
@Suite("AD descriptions from the text writer")
struct ADDescriptionWriterTests {
    /// `description`, checked against the writer's text after a prefix.
    static func check(_ description: String, _ write: (inout TextOutput) -> Void,
                      sourceLocation: SourceLocation = #_sourceLocation) {
        var out = TextOutput()
        out.write("report: ")
        write(&out)
        #expect(out.string == "report: " + description, sourceLocation: sourceLocation)
    }

    static let structures: [(ADStructure, String)] = [
        (.flags(ADFlags(rawValue: 0x06)), "Flags 0x06 (LE General Discoverable, BR/EDR Not Supported)"),
        (.flags(ADFlags(rawValue: 0xE1)), "Flags 0xE1 (LE Limited Discoverable, reserved 0xE0)"),
        (.flags(ADFlags(rawValue: 0)), "Flags 0x00"),
        (.serviceUUIDs(ADUUIDList(uuids16: [0x180D, 0xFFF0]), isComplete: true), "16-bit UUIDs 180D (Heart Rate), FFF0"),
        (.serviceUUIDs(ADUUIDList(uuids32: [0x0000_180F]), isComplete: false), "Incomplete 32-bit UUIDs 0000180F (Battery)"),
        (.serviceUUIDs(ADUUIDList(uuids16: []), isComplete: true), "16-bit UUIDs none"),
        (.serviceUUIDs(ADUUIDList(uuids128: [BluetoothUUID(0x180D)]), isComplete: true),
         "128-bit UUIDs 0000180D-0000-1000-8000-00805F9B34FB (Heart Rate)"),
        (.serviceSolicitation(ADUUIDList(uuids16: [0x1812])), "Solicited 16-bit UUIDs 1812 (Human Interface Device)"),
        (.localName(ADLocalName("Nexxtender")), #"Complete Local Name "Nexxtender""#),
        (.localName(ADLocalName(bytes: [0x41, 0x22, 0x0A, 0xFF], isComplete: false)),
         #"Shortened Local Name "A\"\n\#u{FFFD}" (invalid UTF-8: 41 22 0a ff)"#),
        (.txPowerLevel(-8), "Tx Power Level -8 dBm"),
        (.serviceData(ADServiceData(uuid: BluetoothUUID(0x180F), data: [0x64])), "Service Data 180F (Battery): 64"),
        (.serviceData(ADServiceData(uuid: BluetoothUUID(0xFEAA), data: [])), "Service Data FEAA (Google LLC)"),
        (.manufacturerSpecificData(ADManufacturerSpecificData(companyIdentifier: 0x004C, data: [0x02, 0x15])),
         "Manufacturer Specific Data 0x004C (Apple, Inc.) 0215"),
        (.manufacturerSpecificData(ADManufacturerSpecificData(companyIdentifier: 0xFFFF, data: [])), "Manufacturer Specific Data 0xFFFF"),
        (.publicTargetAddresses([BluetoothAddress(0xD00D_FEED_4852), BluetoothAddress(1)]),
         "Public Target Address D0:0D:FE:ED:48:52, 00:00:00:00:00:01"),
        (.other(type: ADType(rawValue: 0x2B), data: [0x00, 0x11]), "\(ADType(rawValue: 0x2B)) 0011"),
        (.other(type: ADType(rawValue: 0x3B), data: []), "AD type 0x3B"),
    ]

    @Test("each structure's description is its writer's text", arguments: structures.indices)
    func structureText(index: Int) throws {
        let (structure, expected) = Self.structures[index]
        #expect(structure.description == expected)
        Self.check(structure.description) { structure.writeDescription(to: &$0) }
        // Encoded and decoded again, the element written from its octets reads the same.
        let ad = AdvertisingData(decoding: try structure.encoded())
        let element = try #require(ad.elements.first)
        #expect(element.description == expected)
        Self.check(ad.description) { ad.writeDescription(to: &$0) }
    }

    @Test("malformed elements show their diagnostic and octets, written as description reads")
    func malformedElements() {
        for bytes: [UInt8] in [[0x05, 0xFF, 0x4C], [0x02, 0x16, 0x0D], [0x04, 0x03, 0x0D, 0x18, 0x0F], [0x01], [0x03, 0x0A, 0x01, 0x02]] {
            let ad = AdvertisingData(decoding: bytes)
            for element in ad.elements {
                Self.check(element.description) { element.writeDescription(to: &$0) }
                #expect(element.description.hasSuffix("]"), "\(bytes)")
            }
        }
        #expect(AdvertisingData.empty.description == "empty")
    }

    @Test("report event types: legacy names and extended properties, written as description reads")
    func eventTypes() {
        let legacy: [(UInt8, String)] = [(0, "ADV_IND"), (4, "SCAN_RSP"), (7, "event type 0x07")]
        for (raw, text) in legacy {
            let type = LEAdvertisingReport.EventType(rawValue: raw)
            #expect(type.description == text)
            Self.check(text) { type.writeDescription(to: &$0) }
        }
        let extended: [(UInt16, String)] = [
            (0x13, "legacy ADV_IND, connectable, scannable"), (0x10, "legacy ADV_NONCONN_IND"), (0x00, "non-connectable"),
            (0x21, "connectable, more data to come"), (0x0180, "reserved 0x180"), (0x17, "legacy, connectable, scannable, directed"),
        ]
        for (raw, text) in extended {
            let type = LEExtendedAdvertisingReport.EventType(rawValue: raw)
            #expect(type.description == text)
            Self.check(text) { type.writeDescription(to: &$0) }
        }
    }
}
