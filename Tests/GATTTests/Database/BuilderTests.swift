import Testing
import ATT
import BLECore
@testable import GATT

/// The builder's layout (Core v5.4, Vol 3, Part G, 3): handles, declarations, the descriptors
/// it adds, includes, permissions, and the lookups of the built database.
@Suite("GATTDatabaseBuilder layout")
struct BuilderTests {
    static let heartRate = DBTest.uuid(0x180D)
    static let battery = DBTest.uuid(0x180F)

    @Test("annotated fixture: the attribute table of a small database")
    func table() throws {
        var builder = GATTDatabaseBuilder()
        builder.addService(.primary(Self.heartRate, characteristics: [
            GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A37), properties: [.notify]),
            GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A38), properties: [.read], value: .fixed([0x01]),
                                         descriptors: [.userDescription("Location")]),
        ]))
        builder.addService(.primary(Self.battery, characteristics: [
            GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A19), properties: [.read, .notify], value: .fixed([0x57]),
                                         descriptors: [.presentationFormat(GATTPresentationFormat(format: .uint8, unit: 0x27AD))]),
        ]))
        let db = try builder.build()
        let ro = GATTPermissions.readOnly, rw = GATTPermissions.readWrite, none = GATTPermissions.none
        let expected: [DBTest.Row] = [
            // 0x0001 «Primary Service» 0x180D (Heart Rate)
            .init(handle: 0x0001, type: DBTest.uuid(0x2800), permissions: ro, value: DBTest.hex("0d18")),
            // 0x0002 «Characteristic»: Notify (0x10), value at 0x0003, 0x2A37 (Heart Rate Measurement)
            .init(handle: 0x0002, type: DBTest.uuid(0x2803), permissions: ro, value: DBTest.hex("10 0300 372a")),
            // 0x0003 the value: not readable, not writable (notify only), empty
            .init(handle: 0x0003, type: DBTest.uuid(0x2A37), permissions: none, value: []),
            // 0x0004 «Client Characteristic Configuration», added for Notify: 0x0000
            .init(handle: 0x0004, type: DBTest.uuid(0x2902), permissions: rw, value: DBTest.hex("0000")),
            // 0x0005 «Characteristic»: Read (0x02), value at 0x0006, 0x2A38 (Body Sensor Location)
            .init(handle: 0x0005, type: DBTest.uuid(0x2803), permissions: ro, value: DBTest.hex("02 0600 382a")),
            // 0x0006 the value: 0x01 (Chest)
            .init(handle: 0x0006, type: DBTest.uuid(0x2A38), permissions: ro, value: DBTest.hex("01")),
            // 0x0007 «Characteristic User Description»: "Location"
            .init(handle: 0x0007, type: DBTest.uuid(0x2901), permissions: ro, value: Array("Location".utf8)),
            // 0x0008 «Primary Service» 0x180F (Battery), right after the last service
            .init(handle: 0x0008, type: DBTest.uuid(0x2800), permissions: ro, value: DBTest.hex("0f18")),
            // 0x0009 «Characteristic»: Read, Notify (0x12), value at 0x000A, 0x2A19 (Battery Level)
            .init(handle: 0x0009, type: DBTest.uuid(0x2803), permissions: ro, value: DBTest.hex("12 0a00 192a")),
            // 0x000A the value: 87 %
            .init(handle: 0x000A, type: DBTest.uuid(0x2A19), permissions: ro, value: DBTest.hex("57")),
            // 0x000B «Characteristic Presentation Format»: uint8, exponent 0, percentage, SIG, 0
            .init(handle: 0x000B, type: DBTest.uuid(0x2904), permissions: ro, value: DBTest.hex("04 00 ad27 01 0000")),
            // 0x000C «Client Characteristic Configuration», added after the listed descriptors
            .init(handle: 0x000C, type: DBTest.uuid(0x2902), permissions: rw, value: DBTest.hex("0000")),
        ]
        #expect(DBTest.rows(db) == expected)

        #expect(db.services.count == 2)
        #expect(db.services[0].handleRange == 0x0001...0x0007)
        #expect(db.services[1].handleRange == 0x0008...0x000C)
        let hrm = db.services[0].characteristics[0]
        #expect(hrm.declarationHandle == 0x0002)
        #expect(hrm.valueHandle == 0x0003)
        #expect(hrm.endHandle == 0x0004)
        #expect(hrm.clientCharacteristicConfigurationHandle == 0x0004)
        #expect(db.services[0].characteristics[1].endHandle == 0x0007)
        #expect(db.services[0].characteristics[1].clientCharacteristicConfigurationHandle == nil)
        let level = db.services[1].characteristics[0]
        #expect(level.descriptors.map(\.handle) == [0x000B, 0x000C])
        if case .presentationFormat(let format) = level.descriptors[0].content {
            #expect(format.unit == 0x27AD)
        } else {
            Issue.record("the first descriptor is the Presentation Format")
        }
    }

    @Test("the descriptors the specification requires are added in Appendix B's order")
    func automaticDescriptors() throws {
        let db = try GATTDatabase(services: [.primary(Self.battery, characteristics: [
            GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A19), properties: [.broadcast, .read, .indicate],
                                         extendedProperties: [.reliableWrite], value: .fixed([1])),
        ])])
        let c = db.services[0].characteristics[0]
        // Extended properties set the Extended Properties bit: 0x01 | 0x02 | 0x20 | 0x80.
        #expect(c.properties.rawValue == 0xA3)
        #expect(db.attribute(at: 0x0002)?.value.fixedValue == DBTest.hex("a3 0300 192a"))
        // CCCD, then SCCD, then Extended Properties (0x0001, Reliable Write).
        #expect(c.descriptors.map(\.type) == [DBTest.uuid(0x2902), DBTest.uuid(0x2903), DBTest.uuid(0x2900)])
        #expect(c.descriptors.map(\.value.fixedValue) == [[0, 0], [0, 0], [1, 0]])
        #expect(c.descriptors.map(\.permissions) == [.readWrite, .readWrite, .readOnly])
        // Reliable Write makes the value writable by default.
        #expect(c.permissions == .readWrite)
        #expect(c.extendedProperties == .reliableWrite)
    }

    @Test("a listed descriptor is not added again, and keeps its place and handle")
    func listedDescriptors() throws {
        let db = try GATTDatabase(services: [.primary(Self.battery, characteristics: [
            GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A19), properties: [.notify], extendedProperties: [.writableAuxiliaries],
                                         descriptors: [GATTDescriptorDefinition(.extendedProperties),
                                                       .clientCharacteristicConfiguration(handle: 0x0010),
                                                       .userDescription("Level")]),
        ])])
        let c = db.services[0].characteristics[0]
        #expect(c.descriptors.map(\.type) == [DBTest.uuid(0x2900), DBTest.uuid(0x2902), DBTest.uuid(0x2901)])
        #expect(c.descriptors.map(\.handle) == [0x0004, 0x0010, 0x0011])
        // Writable Auxiliaries: the User Description may be written.
        #expect(c.descriptors[2].permissions == .readWrite)
        #expect(db.services[0].endGroupHandle == 0x0011)
    }

    @Test("the Extended Properties property alone adds a descriptor of 0x0000")
    func extendedPropertiesBitAlone() throws {
        let db = try GATTDatabase(services: [.primary(Self.battery, characteristics: [
            GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A19), properties: [.read, .extendedProperties]),
        ])])
        #expect(db.attribute(at: 0x0004)?.type == DBTest.uuid(0x2900))
        #expect(db.attribute(at: 0x0004)?.value.fixedValue == [0, 0])
    }

    @Test("includes: 16-bit and 128-bit, forward and backward, by id and by position")
    func includes() throws {
        let vendor = DBTest.uuid("A5F30001-6C1B-4B8E-9E3A-4C696E757842")
        var builder = GATTDatabaseBuilder()
        let early = builder.addService(.secondary(vendor, characteristics: [
            GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A19), properties: [.read], value: .fixed([1])),
        ]))
        #expect(early == .index(0))
        builder.addService(.primary(Self.heartRate, includes: [GATTIncludeDefinition(early), GATTIncludeDefinition("later")]))
        builder.addService(.secondary(Self.battery, id: "later"))
        let db = try builder.build()
        // 0x0001-0x0003 the vendor service; 0x0004 Heart Rate with includes at 0x0005, 0x0006; 0x0007 Battery.
        let includes = db.services[1].includes
        #expect(includes.map(\.handle) == [0x0005, 0x0006])
        // «Include» of the 128-bit service: 0x0001, 0x0003, no UUID
        #expect(db.attribute(at: 0x0005)?.value.fixedValue == DBTest.hex("0100 0300"))
        #expect(includes[0].uuid == vendor)
        // «Include» of Battery: 0x0007, 0x0007, 0x180F
        #expect(db.attribute(at: 0x0006)?.value.fixedValue == DBTest.hex("0700 0700 0f18"))
        #expect(db.services[2].id == "later")
        #expect(!db.services[2].isPrimary)
        #expect(db.attribute(at: 0x0007)?.type == DBTest.uuid(0x2801))
    }

    @Test("explicit handles: gaps, an End Group Handle beyond the last attribute, services in any order")
    func explicitHandles() throws {
        var builder = GATTDatabaseBuilder()
        builder.addService(GATTServiceDefinition(uuid: Self.battery, handle: 0x0100, endGroupHandle: 0x01FF, characteristics: [
            GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A19), properties: [.read, .notify], handle: 0x0110,
                                         descriptors: [.clientCharacteristicConfiguration(handle: 0x0120)]),
        ]))
        builder.addService(.primary(Self.heartRate, handle: 0x0010, characteristics: [
            GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A38), properties: [.read], valueHandle: 0x0020),
        ]))
        builder.addService(.primary(DBTest.uuid(0x180A)))   // allocated after the previous service in the list
        let db = try builder.build()
        #expect(db.attributes.map(\.handle) == [0x0010, 0x001F, 0x0020, 0x0021, 0x0100, 0x0110, 0x0111, 0x0120])
        #expect(db.services.map(\.handle) == [0x0010, 0x0021, 0x0100])
        #expect(db.services.map(\.endGroupHandle) == [0x0020, 0x0021, 0x01FF])
        // Only the value handle given: the declaration sits just before it.
        #expect(db.services[0].characteristics[0].declarationHandle == 0x001F)
        // The last characteristic runs to the End Group Handle.
        #expect(db.services[2].characteristics[0].endHandle == 0x01FF)
        #expect(db.characteristic(containing: 0x0150)?.valueHandle == 0x0111)
    }

    @Test("lookups by handle")
    func lookups() throws {
        let db = try DBTest.load("heart-rate-demo.json")
        #expect(db.attribute(at: 0x0000) == nil)
        #expect(db.attribute(at: 0x0003)?.value.fixedValue == Array("LinuxBLE HR".utf8))
        #expect(db.attribute(at: 0x002A) == nil)
        #expect(db.attributes(in: 0x0001...0x0005).map(\.handle) == [1, 2, 3, 4, 5])
        #expect(db.attributes(in: 0x0028...0xFFFF).map(\.handle) == [0x0028, 0x0029])
        #expect(db.attributes(in: 0x0030...0xFFFF).isEmpty)
        #expect(db.attributes(in: 0x0000...0x0000).isEmpty)
        #expect(db.service(containing: 0x0011)?.uuid == DBTest.uuid(0x180D))
        #expect(db.service(containing: 0x002A) == nil)
        #expect(db.service(declaredAt: 0x000E)?.uuid == DBTest.uuid(0x180D))
        #expect(db.service(declaredAt: 0x000F) == nil)
        #expect(db.characteristic(valueHandle: 0x0010)?.uuid == DBTest.uuid(0x2A37))
        #expect(db.characteristic(valueHandle: 0x0011) == nil)
        #expect(db.characteristic(containing: 0x0011)?.uuid == DBTest.uuid(0x2A37))
        #expect(db.characteristic(containing: 0x0029)?.uuid == DBTest.uuid("A5F10004-6C1B-4B8E-9E3A-4C696E757842"))
        #expect(db.characteristic(containing: 0x0001) == nil)
        #expect(db.characteristics().count == 14)
        #expect(db.characteristics(DBTest.uuid(0x2A19)).map(\.valueHandle) == [0x0018])
        #expect(db.services(DBTest.uuid(0x180A)).map(\.handle) == [0x001A])
    }

    @Test("default value permissions follow the properties")
    func defaultPermissions() {
        func permissions(_ p: GATTCharacteristicProperties, _ e: GATTCharacteristicExtendedProperties = []) -> GATTPermissions {
            GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A19), properties: p, extendedProperties: e).defaultPermissions
        }
        #expect(permissions([.read]) == .readOnly)
        #expect(permissions([.write]) == .writeOnly)
        #expect(permissions([.writeWithoutResponse]) == .writeOnly)
        #expect(permissions([.authenticatedSignedWrites]) == .writeOnly)
        #expect(permissions([.notify, .indicate, .broadcast]) == .none)
        #expect(permissions([.read], .reliableWrite) == .readWrite)
        #expect(permissions([.read], .writableAuxiliaries) == .readOnly)
    }

    @Test("explicit permissions and security requirements are kept")
    func explicitPermissions() throws {
        let access = GATTAccess(encryption: true, authentication: true, authorization: true, minimumKeySize: 16)
        let db = try GATTDatabase(services: [.primary(Self.battery, characteristics: [
            GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A19), properties: [.read],
                                         permissions: GATTPermissions(read: access), value: .fixed([1])),
        ])])
        #expect(db.attribute(at: 0x0003)?.permissions.read == access)
        #expect(db.attribute(at: 0x0003)?.permissions.write == nil)
        #expect(access.description == "encryption, authentication, authorization, key size >= 16")
        #expect(GATTPermissions(read: .open, write: .encrypted).description == "read (open), write (encryption)")
    }

    @Test("a dynamic value calls its handlers with the offset and the peer")
    func dynamicValue() async throws {
        let handlers = GATTValueHandlers(name: "echo", read: { offset, peer in
            Array("peer \(peer.connectionID) offset \(offset)".utf8)
        }, write: { value, offset, _ throws(ATTErrorCode) in
            if offset > 0 { throw ATTErrorCode.invalidOffset }
            _ = value
        })
        let db = try GATTDatabase(services: [.primary(Self.battery, characteristics: [
            GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A19), properties: [.read, .write], value: .dynamic(handlers)),
        ])])
        let value = try #require(db.attribute(at: 0x0003)?.value.handlers)
        #expect(value.name == "echo")
        let read = try #require(value.read)
        #expect(try await read(5, GATTPeer(connectionID: 7)) == Array("peer 7 offset 5".utf8))
        let write = try #require(value.write)
        await #expect(throws: ATTErrorCode.invalidOffset) { try await write([1], 3, GATTPeer(connectionID: 7)) }
        try await write([1], 0, GATTPeer(connectionID: 7))
    }

    @Test("32-bit UUIDs are stored in 128 bits, as ATT carries them")
    func uuid32() throws {
        let db = try GATTDatabase(services: [.primary(BluetoothUUID(uuid32: 0x1234_5678), characteristics: [
            GATTCharacteristicDefinition(uuid: BluetoothUUID(uuid32: 0xABCD_0001), properties: [.read]),
        ])])
        #expect(db.services[0].uuid.width == .bits128)
        #expect(db.attribute(at: 0x0001)?.value.fixedValue?.count == 16)
        #expect(db.attribute(at: 0x0003)?.type.width == .bits128)
        #expect(db.attribute(at: 0x0003)?.type == BluetoothUUID(uuid32: 0xABCD_0001))
    }

    @Test("an Aggregate Format lists the Presentation Format handles in order")
    func aggregateFormat() throws {
        let db = try GATTDatabase(services: [.primary(Self.battery, characteristics: [
            GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A19), properties: [.read], descriptors: [
                .presentationFormat(GATTPresentationFormat(format: .uint8)),
                GATTDescriptorDefinition(.aggregateFormat),
                .presentationFormat(GATTPresentationFormat(format: .sint16), handle: 0x0010),
            ]),
        ])])
        // «Characteristic Aggregate Format» at 0x0005: 0x0004, 0x0010
        #expect(db.attribute(at: 0x0005)?.value.fixedValue == DBTest.hex("0400 1000"))
    }

    @Test("a maximum-length value is accepted; the builder keeps its services in order")
    func maximumValue() throws {
        var builder = GATTDatabaseBuilder()
        builder.addService(.primary(Self.battery, characteristics: [
            GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A19), properties: [.read], value: .fixed([UInt8](repeating: 7, count: 512))),
        ]))
        #expect(builder.services.count == 1)
        #expect(try builder.build().attribute(at: 0x0003)?.value.fixedValue?.count == 512)
    }

    @Test("the reference database: 6 services, 30 characteristics, allocated handles")
    func reference() throws {
        let db = try DBTest.load("reference.json")
        #expect(db.services.count == 6)
        #expect(db.characteristics().count == 30)
        #expect(db.services.filter { !$0.isPrimary }.count == 2)
        // Handles are consecutive from 0x0001.
        #expect(db.attributes.map(\.handle) == (1...UInt16(db.attributes.count)).map { $0 })
        let longValue = db.characteristics(DBTest.uuid("A5F20002-6C1B-4B8E-9E3A-4C696E757842")).first
        #expect(longValue?.value.fixedValue?.count == 300)
        let maximum = db.characteristics(DBTest.uuid("A5F2000C-6C1B-4B8E-9E3A-4C696E757842")).first
        #expect(maximum?.value.fixedValue?.count == 512)
        let broadcast = db.characteristics(DBTest.uuid("A5F2000E-6C1B-4B8E-9E3A-4C696E757842")).first
        #expect(broadcast?.descriptors.map(\.type) == [DBTest.uuid(0x2903)])
        // The 128-bit secondary service is included without a UUID in the declaration.
        let include = try #require(db.services[4].includes.first)
        #expect(include.declaration.serviceUUID == nil)
        #expect(db.service(declaredAt: include.serviceHandle)?.id == "vendorSecondary")
    }
}
