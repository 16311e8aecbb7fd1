@testable import BLE
import BLECore
import Foundation
import Testing
import VirtualRadio

/// A Client Characteristic Configuration written with bits 2-15, which are Reserved for Future
/// Use (Core v5.4, Vol 3, Part G, 3.3.3.3, Table 3.11): they enable nothing, so the peripheral
/// manager counts a subscription only by the Notification and Indication bits.
@Suite("PeripheralManager: reserved Client Characteristic Configuration bits", .timeLimit(.minutes(1)))
struct ReservedConfigurationBitsTests {
    @Test("reserved bits alone subscribe to nothing: 0x0004, 0x0005, 0x0004 is one subscription and its end, in order before a later subscription")
    func reservedBitsEnableNothing() async throws {
        let (radio, manager, temperature, intermediate, central) = try await SlowCentralTests.Scene.served(seed: 151, temperatureProperties: [.notify])
        defer { radio.shutDown() }
        var subscriptions = manager.subscriptions.makeAsyncIterator()
        let (_, cccd) = try await central.handles(ofCharacteristic: SlowCentralTests.temperature)
        let (_, otherCCCD) = try await central.handles(ofCharacteristic: SlowCentralTests.intermediate)
        func write(_ value: UInt16, to handle: UInt16) async throws {
            let response = try await central.ask([0x12, UInt8(handle & 0xFF), UInt8(handle >> 8), UInt8(value & 0xFF), UInt8(value >> 8)])
            #expect(response == [0x13], "ATT_WRITE_RSP")
        }

        try await write(0x0004, to: cccd)
        try await write(0x0005, to: cccd)
        try await write(0x0004, to: cccd)
        try await write(0x0001, to: otherCCCD)          // server events keep their order: a fence
        guard case .subscribed(_, let first) = await subscriptions.next() else { Issue.record("no subscription"); return }
        #expect(first === temperature, "subscribed by 0x0005, not by 0x0004")
        guard case .unsubscribed(_, let second) = await subscriptions.next() else { Issue.record("0x0004 kept the subscription"); return }
        #expect(second === temperature)
        guard case .subscribed(_, let third) = await subscriptions.next() else { Issue.record("no fence"); return }
        #expect(third === intermediate)
        #expect(temperature.subscribedCentrals.isEmpty)
        await central.shutDown()
        await manager.close()
    }
}
