import Testing
import BLECore
@testable import GATT

/// Every ``GATTDatabaseError`` the builder throws, with the exact path.
@Suite("GATTDatabaseBuilder validation")
struct ValidationTests {
    static let battery = DBTest.uuid(0x180F)
    static func level(_ properties: GATTCharacteristicProperties = [.read], handle: UInt16? = nil, valueHandle: UInt16? = nil,
                      value: GATTAttributeValue = .fixed([1]), permissions: GATTPermissions? = nil,
                      extended: GATTCharacteristicExtendedProperties = [],
                      descriptors: [GATTDescriptorDefinition] = []) -> GATTCharacteristicDefinition {
        GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A19), properties: properties, extendedProperties: extended,
                                     permissions: permissions, value: value, handle: handle, valueHandle: valueHandle,
                                     descriptors: descriptors)
    }

    @Test("handle 0x0000 is reserved")
    func reservedHandle() {
        DBTest.expectError(.reservedHandle(path: "services[0].handle"), [.primary(Self.battery, handle: 0)])
        DBTest.expectError(.reservedHandle(path: "services[0].characteristics[0].valueHandle"),
                           [.primary(Self.battery, characteristics: [Self.level(valueHandle: 0)])])
        DBTest.expectError(.reservedHandle(path: "services[0].characteristics[0].descriptors[0].handle"),
                           [.primary(Self.battery, handle: 1, characteristics: [
                               Self.level(descriptors: [.userDescription("x", handle: 0)])])])
    }

    @Test("handles out of order inside a service")
    func outOfOrder() {
        DBTest.expectError(.handleOutOfOrder(path: "services[0].characteristics[0].handle", handle: 0x0005, previous: 0x0010),
                           [.primary(Self.battery, handle: 0x0010, characteristics: [Self.level(handle: 0x0005)])])
        DBTest.expectError(.handleOutOfOrder(path: "services[0].characteristics[0].valueHandle", handle: 0x0003, previous: 0x0003),
                           [.primary(Self.battery, characteristics: [Self.level(handle: 0x0003, valueHandle: 0x0003)])])
        // Only the value handle given, right after the service declaration: no room for the declaration.
        DBTest.expectError(.handleOutOfOrder(path: "services[0].characteristics[0].handle", handle: 0x0001, previous: 0x0001),
                           [.primary(Self.battery, characteristics: [Self.level(valueHandle: 0x0002)])])
        DBTest.expectError(.handleOutOfOrder(path: "services[0].characteristics[1].handle", handle: 0x0004, previous: 0x0004),
                           [.primary(Self.battery, characteristics: [
                               Self.level([.notify], value: .fixed([])),
                               Self.level(handle: 0x0004)])])
        DBTest.expectError(.handleOutOfOrder(path: "services[0].includes[1].handle", handle: 0x0002, previous: 0x0002),
                           [.primary(Self.battery, id: "self2", includes: [GATTIncludeDefinition(1, handle: 2), GATTIncludeDefinition(1, handle: 2)]),
                            .secondary(DBTest.uuid(0x180A))])
    }

    @Test("handles run out after 0xFFFF")
    func exhausted() {
        DBTest.expectError(.handlesExhausted(path: "services[0].characteristics[0].valueHandle"),
                           [.primary(Self.battery, handle: 0xFFFE, characteristics: [Self.level()])])
        DBTest.expectError(.handlesExhausted(path: "services[1].handle"),
                           [.primary(Self.battery, handle: 0xFFFF), .primary(DBTest.uuid(0x180A))])
        DBTest.expectError(.handlesExhausted(path: "services[0].characteristics[0].(automatic Client Characteristic Configuration)"),
                           [.primary(Self.battery, handle: 0xFFFD, characteristics: [Self.level([.notify])])])
    }

    @Test("two attributes with one handle, and overlapping services")
    func duplicates() {
        DBTest.expectError(.duplicateHandle(handle: 0x0002, path: "services[1].handle", otherPath: "services[0].characteristics[0].handle"),
                           [.primary(Self.battery, characteristics: [Self.level()]), .primary(DBTest.uuid(0x180A), handle: 0x0002)])
        DBTest.expectError(.duplicateHandle(handle: 0x0001, path: "services[1].handle", otherPath: "services[0].handle"),
                           [.primary(Self.battery), .primary(DBTest.uuid(0x180A), handle: 0x0001)])
        // 0x0010 lies inside 0x0001...0x0020 without sharing a handle.
        DBTest.expectError(.overlappingServices(path: "services[1]", otherPath: "services[0]"),
                           [GATTServiceDefinition(uuid: Self.battery, handle: 1, endGroupHandle: 0x0020),
                            .primary(DBTest.uuid(0x180A), handle: 0x0010)])
        // Listed second but placed first: still named as the second definition.
        DBTest.expectError(.overlappingServices(path: "services[1]", otherPath: "services[0]"),
                           [.primary(Self.battery, handle: 0x0010),
                            GATTServiceDefinition(uuid: DBTest.uuid(0x180A), handle: 0x0008, endGroupHandle: 0x0011)])
    }

    @Test("an End Group Handle below the last attribute")
    func endGroupHandle() {
        DBTest.expectError(.endGroupHandleTooLow(path: "services[0].endGroupHandle", endGroupHandle: 0x0002, lastHandle: 0x0003),
                           [GATTServiceDefinition(uuid: Self.battery, endGroupHandle: 2, characteristics: [Self.level()])])
    }

    @Test("service ids: duplicates, missing include targets")
    func serviceIDs() {
        DBTest.expectError(.duplicateServiceID(id: "a", path: "services[1].id"),
                           [.primary(Self.battery, id: "a"), .primary(DBTest.uuid(0x180A), id: "a")])
        DBTest.expectError(.includedServiceNotFound(reference: "missing", path: "services[0].includes[0]"),
                           [.primary(Self.battery, includes: [GATTIncludeDefinition("missing")])])
        DBTest.expectError(.includedServiceNotFound(reference: 5, path: "services[0].includes[0]"),
                           [.primary(Self.battery, includes: [GATTIncludeDefinition(5)])])
        DBTest.expectError(.includedServiceNotFound(reference: -1, path: "services[0].includes[0]"),
                           [.primary(Self.battery, includes: [GATTIncludeDefinition(-1)])])
    }

    @Test("circular includes (Part G, 3.2)")
    func circles() {
        DBTest.expectError(.circularInclude(cycle: ["services[0]", "services[0]"]),
                           [.primary(Self.battery, id: "a", includes: [GATTIncludeDefinition("a")])])
        DBTest.expectError(.circularInclude(cycle: ["services[0]", "services[1]", "services[2]", "services[0]"]),
                           [.primary(Self.battery, includes: [GATTIncludeDefinition(1)]),
                            .secondary(DBTest.uuid(0x180A), includes: [GATTIncludeDefinition(2)]),
                            .secondary(DBTest.uuid(0x1808), includes: [GATTIncludeDefinition(0)])])
        // A diamond is not a circle.
        let diamond: [GATTServiceDefinition] = [
            .primary(Self.battery, includes: [GATTIncludeDefinition(1), GATTIncludeDefinition(2)]),
            .secondary(DBTest.uuid(0x180A), includes: [GATTIncludeDefinition(3)]),
            .secondary(DBTest.uuid(0x1808), includes: [GATTIncludeDefinition(3)]),
            .secondary(DBTest.uuid(0x1809)),
        ]
        #expect(throws: Never.self) { try GATTDatabase(services: diamond) }
    }

    @Test("values over 512 octets (Part F, 3.2.9)")
    func valueTooLong() {
        DBTest.expectError(.valueTooLong(path: "services[0].characteristics[0].value", length: 513),
                           [.primary(Self.battery, characteristics: [Self.level(value: .fixed([UInt8](repeating: 0, count: 513)))])])
        DBTest.expectError(.valueTooLong(path: "services[0].characteristics[0].descriptors[0].text", length: 600),
                           [.primary(Self.battery, characteristics: [
                               Self.level(descriptors: [.userDescription(String(repeating: "x", count: 600))])])])
        DBTest.expectError(.valueTooLong(path: "services[0].characteristics[0].descriptors[0].value", length: 1000),
                           [.primary(Self.battery, characteristics: [
                               Self.level(descriptors: [.other(DBTest.uuid(0x2906), value: .fixed([UInt8](repeating: 0, count: 1000)))])])])
    }

    @Test("descriptor types the stack owns cannot be raw")
    func reservedDescriptorTypes() {
        for type: UInt16 in [0x2800, 0x2801, 0x2802, 0x2803, 0x2900, 0x2902, 0x2903] {
            DBTest.expectError(.reservedDescriptorType(type: DBTest.uuid(type), path: "services[0].characteristics[0].descriptors[0]"),
                               [.primary(Self.battery, characteristics: [
                                   Self.level(descriptors: [.other(DBTest.uuid(type), value: .fixed([0, 0]))])])])
        }
    }

    @Test("descriptors a characteristic may have only once")
    func duplicateDescriptors() {
        DBTest.expectError(.duplicateDescriptor(type: DBTest.uuid(0x2901), path: "services[0].characteristics[0].descriptors[1]"),
                           [.primary(Self.battery, characteristics: [
                               Self.level(descriptors: [.userDescription("a"), .userDescription("b")])])])
        // A raw User Description counts too.
        DBTest.expectError(.duplicateDescriptor(type: DBTest.uuid(0x2901), path: "services[0].characteristics[0].descriptors[1]"),
                           [.primary(Self.battery, characteristics: [
                               Self.level(descriptors: [.userDescription("a"), .other(DBTest.uuid(0x2901), value: .text("b"))])])])
        DBTest.expectError(.duplicateDescriptor(type: DBTest.uuid(0x2902), path: "services[0].characteristics[0].descriptors[1]"),
                           [.primary(Self.battery, characteristics: [
                               Self.level([.notify], descriptors: [.clientCharacteristicConfiguration(), .clientCharacteristicConfiguration()])])])
        DBTest.expectError(.duplicateDescriptor(type: DBTest.uuid(0x2905), path: "services[0].characteristics[0].descriptors[1]"),
                           [.primary(Self.battery, characteristics: [
                               Self.level(descriptors: [GATTDescriptorDefinition(.aggregateFormat), GATTDescriptorDefinition(.aggregateFormat)])])])
    }

    @Test("several Presentation Formats need an Aggregate Format (3.3.3.5)")
    func aggregateRequired() {
        DBTest.expectError(.missingAggregateFormat(path: "services[0].characteristics[0]"),
                           [.primary(Self.battery, characteristics: [
                               Self.level(descriptors: [.presentationFormat(GATTPresentationFormat(format: .uint8)),
                                                        .presentationFormat(GATTPresentationFormat(format: .uint8))])])])
    }

    @Test("permissions the specification does not allow")
    func permissions() {
        let path = "services[0].characteristics[0].descriptors[0].permissions"
        DBTest.expectError(.invalidPermissions(path: path, reason: "a configuration descriptor is readable with no requirement, and writable"),
                           [.primary(Self.battery, characteristics: [
                               Self.level([.notify], descriptors: [.clientCharacteristicConfiguration(permissions: .readOnly)])])])
        DBTest.expectError(.invalidPermissions(path: path, reason: "a configuration descriptor is readable with no requirement, and writable"),
                           [.primary(Self.battery, characteristics: [
                               Self.level([.notify], descriptors: [.clientCharacteristicConfiguration(
                                   permissions: GATTPermissions(read: .encrypted, write: .open))])])])
        DBTest.expectError(.invalidPermissions(path: path, reason: "this descriptor is read only with no requirement"),
                           [.primary(Self.battery, characteristics: [
                               Self.level(descriptors: [GATTDescriptorDefinition(.presentationFormat(GATTPresentationFormat(format: .uint8)),
                                                                                 permissions: .readWrite)])])])
        DBTest.expectError(.invalidPermissions(path: path, reason: "a User Description is writable exactly when the characteristic has Writable Auxiliaries"),
                           [.primary(Self.battery, characteristics: [
                               Self.level(descriptors: [.userDescription("x", permissions: .readWrite)])])])
        DBTest.expectError(.invalidPermissions(path: path, reason: "a User Description is readable with no requirement"),
                           [.primary(Self.battery, characteristics: [
                               Self.level(descriptors: [.userDescription("x", permissions: GATTPermissions(read: .authenticated))])])])
        // With CCCD write requirements, as the specification allows.
        #expect(throws: Never.self) {
            try GATTDatabase(services: [.primary(Self.battery, characteristics: [
                Self.level([.notify], descriptors: [.clientCharacteristicConfiguration(
                    permissions: GATTPermissions(read: .open, write: .authenticated))])])])
        }
    }

    @Test("minimum key sizes outside 7...16")
    func keySizes() {
        for size in [1, 6, 17, -1] {
            DBTest.expectError(.invalidPermissions(path: "services[0].characteristics[0].permissions",
                                                   reason: "minimum key size \(size) is outside 7...16 octets"),
                               [.primary(Self.battery, characteristics: [
                                   Self.level(permissions: GATTPermissions(read: GATTAccess(encryption: true, minimumKeySize: size)))])])
        }
        for size in [0, 7, 16] {
            #expect(throws: Never.self) {
                try GATTDatabase(services: [.primary(Self.battery, characteristics: [
                    Self.level(permissions: GATTPermissions(write: GATTAccess(minimumKeySize: size)))])])
            }
        }
    }

    @Test("dynamic values need the handlers their permissions allow")
    func missingHandlers() {
        DBTest.expectError(.missingHandler(path: "services[0].characteristics[0].value", access: "write"),
                           [.primary(Self.battery, characteristics: [
                               Self.level([.read, .write], value: .dynamic(GATTValueHandlers(read: { _, _ in [] })))])])
        DBTest.expectError(.missingHandler(path: "services[0].characteristics[0].value", access: "read"),
                           [.primary(Self.battery, characteristics: [
                               Self.level([.read], value: .dynamic(GATTValueHandlers()))])])
        DBTest.expectError(.missingHandler(path: "services[0].characteristics[0].descriptors[0].value", access: "read"),
                           [.primary(Self.battery, characteristics: [
                               Self.level(descriptors: [.other(DBTest.uuid(0x2906), value: .dynamic(GATTValueHandlers()),
                                                               permissions: .readOnly)])])])
    }

    @Test("every error describes itself with its path")
    func descriptions() {
        #expect(GATTDatabaseError.duplicateHandle(handle: 2, path: "services[1].handle", otherPath: "services[0].handle").description
                == "services[1].handle: handle 0x0002 is already used by services[0].handle")
        #expect(GATTDatabaseError.circularInclude(cycle: ["services[0]", "services[1]", "services[0]"]).description
                == "circular include: services[0] -> services[1] -> services[0]")
        #expect(GATTDatabaseError.reservedDescriptorType(type: DBTest.uuid(0x2902), path: "p").description
                == "p: a raw descriptor cannot have type 2902 (Client Characteristic Configuration)")
        #expect(GATTDatabaseError.valueTooLong(path: "p", length: 513).description == "p: 513 octets; an attribute value holds at most 512")
    }
}
