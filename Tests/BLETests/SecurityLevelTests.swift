@testable import BLE
import BLECore
import Foundation
import Testing

/// ``ConnectOptions/security`` in host mode, which cannot pair yet: refused before anything is
/// sent, the peripheral left disconnected. (Kernel mode's pairing runs in the kernel lane.)
@Suite("Connection security", .timeLimit(.minutes(1)))
struct SecurityLevelTests {
    @Test("host mode: an encrypted or authenticated link is unsupported, says why, and leaves the peripheral disconnected")
    func hostModeCannotPair() async throws {
        let testbed = try await BLETestbed.make(seed: 95)
        let peripheral = testbed.peripheral
        for level in [SecurityLevel.encrypted, .authenticated] {
            do {
                try await testbed.central.connect(peripheral, options: ConnectOptions(timeout: .seconds(20), security: level))
                Issue.record("connected with \(level)")
            } catch {
                guard case .unsupported(let why) = error else { Issue.record("\(error)"); continue }
                #expect(why.contains("needs pairing, which host mode does not do yet"), "\(why)")
            }
            #expect(peripheral.state == .disconnected)
        }
        #expect(testbed.sensor.linkCount == 0, "no connection was attempted")
        try await testbed.central.connect(peripheral, options: ConnectOptions(timeout: .seconds(20), security: .none))
        #expect(peripheral.state == .connected)
        await testbed.shutDown()
    }

    @Test("the levels read as LE security mode 1's")
    func names() {
        #expect(SecurityLevel.allCases.map(\.description) == ["none", "encrypted", "authenticated"])
        #expect(KernelModeBackend.level(.none) == .low)
        #expect(KernelModeBackend.level(.encrypted) == .medium)
        #expect(KernelModeBackend.level(.authenticated) == .high)
    }
}
