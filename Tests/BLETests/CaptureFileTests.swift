@testable import BLE
import BLECore
import Foundation
import Testing

/// ``ManagerOptions/captureFile``: the manager's HCI traffic as btsnoop.
@Suite("HCI capture file", .timeLimit(.minutes(1)))
struct CaptureFileTests {
    @Test("a central's bring-up and connection are written to the file as btsnoop records")
    func captures() async throws {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("ble-capture-\(UUID().uuidString).btsnoop")
        defer { try? FileManager.default.removeItem(at: file) }
        let testbed = try await BLETestbed.make(seed: 97, options: ManagerOptions(captureFile: file))
        _ = try await testbed.connect()
        await testbed.shutDown()
        let octets = try [UInt8](Data(contentsOf: file))
        #expect(Array(octets.prefix(8)) == Array("btsnoop\0".utf8), "the btsnoop identification pattern")
        #expect(octets.count > 16 + 10 * 24, "the header, then records: at least the bring-up's commands and events")
    }

    @Test("a file that cannot be created leaves the manager unsupported, naming it")
    func unwritable() async throws {
        let radio = VirtualRadio()
        defer { radio.shutDown() }
        let file = URL(fileURLWithPath: "/nonexistent-\(UUID().uuidString)/capture.btsnoop")
        let central = CentralManager(transport: .virtual(radio), options: ManagerOptions(captureFile: file))
        for await state in central.stateUpdates where state != .unknown {
            #expect(state == .unsupported)
            break
        }
        do {
            try await central.connect(central.retrievePeripherals(withIdentifiers: [
                Peripheral.identifier(for: BluetoothAddress(0xC0_00_00_00_00_01), type: .random)])[0])
            Issue.record("connected without a controller")
        } catch {
            guard case .invalidArgument(let why) = error else { Issue.record("\(error)"); return }
            #expect(why.contains(file.path), "\(why)")
        }
        await central.close()
    }
}
