import Glibc
import Testing
import BLECore
@testable import LinuxBluetooth

/// What runs without a radio: the address conversions, and the typed errors a kernel without
/// Bluetooth gives. The connections themselves run in the kernel lane.
@Suite("L2CAP ATT channel")
struct L2CAPATTTests {
    @Test("bdaddr_t holds the address least significant octet first, and converts back")
    func addresses() throws {
        let address = try #require(BluetoothAddress("00:AA:01:01:00:01"))
        let raw = L2CAPATTChannel.bdaddr(address)
        #expect(withUnsafeBytes(of: raw) { Array($0) } == [0x01, 0x00, 0x01, 0x01, 0xAA, 0x00])
        #expect(L2CAPATTChannel.address(raw) == address)
        #expect(L2CAPATTChannel.Security.allCases.map(\.description) == ["low", "medium", "high"])
        #expect(L2CAPATTChannel.Security.medium.rawValue == 2)    // BT_SECURITY_MEDIUM
    }

    @Test("connect and listen fail with a typed error that names the peer (here: no kernel Bluetooth)")
    func errorsHere() async throws {
        let peer = try #require(BluetoothAddress("00:AA:01:00:00:00"))
        do {
            _ = try await L2CAPATTChannel.connect(to: peer, type: .public, timeout: .milliseconds(200))
            Issue.record("connected without a peer")
        } catch {
            #expect(error.description.hasPrefix("connecting to 00:AA:01:00:00:00 (public): "))
            if error.code == EAFNOSUPPORT { #expect(error.remedy?.contains("no Bluetooth") == true) }
        }
        do {
            let listener = try L2CAPATTListener()
            listener.close()
        } catch {
            #expect(error.description.hasPrefix("listening on the ATT channel of every adapter: "))
        }
    }
}
