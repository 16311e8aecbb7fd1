import Testing
import BLECore
@testable import GATT

/// ``GATTDatabase/changedHandles(since:)``: the Service Changed range (Core v5.4, Vol 3, Part G, 7.1).
@Suite("Database changes (Part G, 7.1)")
struct ChangesTests {
    static func database(_ services: [GATTServiceDefinition]) throws -> GATTDatabase { try GATTDatabase(services: services) }
    static func level(_ value: UInt8 = 1, properties: GATTCharacteristicProperties = [.read]) -> GATTCharacteristicDefinition {
        GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A19), properties: properties, value: .fixed([value]))
    }
    static let gap = GATTServiceDefinition.primary(DBTest.uuid(0x1800), characteristics: [
        GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A00), properties: [.read], value: .text("Name")),
    ])

    @Test("the same structure: nothing changed, whatever the values")
    func unchanged() throws {
        let old = try Self.database([Self.gap, .primary(DBTest.uuid(0x180F), characteristics: [Self.level(1)])])
        let new = try Self.database([Self.gap, .primary(DBTest.uuid(0x180F), characteristics: [Self.level(99)])])
        #expect(new.changedHandles(since: old) == nil)
        #expect(old.changedHandles(since: old) == nil)
    }

    @Test("a service added at the end: its handles")
    func appended() throws {
        // Generic Access 0x0001-0x0003; Battery 0x0004-0x0006 is new.
        let old = try Self.database([Self.gap])
        let new = try Self.database([Self.gap, .primary(DBTest.uuid(0x180F), characteristics: [Self.level()])])
        #expect(new.changedHandles(since: old) == 0x0004...0x0006)
        // Removed again: the same range.
        #expect(old.changedHandles(since: new) == 0x0004...0x0006)
    }

    @Test("a characteristic added inside a service: the whole service and what moved after it")
    func inserted() throws {
        // Old: GAP 0x0001-0x0003, Battery 0x0004-0x0006, Device Information 0x0007-0x0009.
        // New: Battery gains a characteristic, 0x0004-0x0008; Device Information moves to 0x0009-0x000B.
        let info = GATTServiceDefinition.primary(DBTest.uuid(0x180A), characteristics: [
            GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A29), properties: [.read], value: .text("x")),
        ])
        let old = try Self.database([Self.gap, .primary(DBTest.uuid(0x180F), characteristics: [Self.level()]), info])
        let new = try Self.database([Self.gap, .primary(DBTest.uuid(0x180F), characteristics: [
            Self.level(), GATTCharacteristicDefinition(uuid: DBTest.uuid(0x2A1A), properties: [.read]),
        ]), info])
        #expect(new.changedHandles(since: old) == 0x0004...0x000B)
    }

    @Test("changed properties: that service only")
    func properties() throws {
        let old = try Self.database([Self.gap, .primary(DBTest.uuid(0x180F), characteristics: [Self.level()])])
        let new = try Self.database([Self.gap, .primary(DBTest.uuid(0x180F), characteristics: [Self.level(properties: [.read, .notify])])])
        // Battery 0x0004-0x0006 becomes 0x0004-0x0007 (a CCCD).
        #expect(new.changedHandles(since: old) == 0x0004...0x0007)
    }
}
