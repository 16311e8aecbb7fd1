import Glibc
import Testing
@testable import LinuxBluetooth

/// Each common errno says what to do: no adapter, capabilities, bluetoothd, timeouts.
@Suite("LinuxBluetoothError")
struct ErrorTests {
    @Test("the remedies name the capability, the daemon, the command")
    func remedies() {
        let raw = LinuxBluetoothError(.bindHCI(index: 0, channel: 0), code: EPERM)
        #expect(raw.description.contains("CAP_NET_RAW"))
        #expect(raw.description.contains("setcap"))
        #expect(raw.description.hasPrefix("binding hci0 to the raw channel: "))
        let user = LinuxBluetoothError(.bindHCI(index: 1, channel: 1), code: EPERM)
        #expect(user.description.contains("the user channel needs CAP_NET_ADMIN"))
        let busy = LinuxBluetoothError(.bindHCI(index: 0, channel: 1), code: EBUSY)
        #expect(busy.description.contains("bluetoothd"))
        let missing = LinuxBluetoothError(.readAdapter(index: 3), code: ENODEV)
        #expect(missing.description == "reading hci3: no such adapter: `blectl list` shows the adapters (No such device)")
        let timeout = LinuxBluetoothError(.l2cap("connecting to 00:AA:01:00:00:00"), code: ETIMEDOUT)
        #expect(timeout.description.contains("advertising, connectable and in range"))
        let security = LinuxBluetoothError(.l2cap("reading"), code: EACCES)
        #expect(security.remedy?.contains("--security") == true)
        let up = LinuxBluetoothError(.switchAdapter(index: 2, up: true), code: EPERM)
        #expect(up.description.hasPrefix("bringing hci2 up: bringing an adapter up or down needs CAP_NET_ADMIN"))
        let blocked = LinuxBluetoothError(.switchAdapter(index: 0, up: true), code: ERFKILL)
        #expect(blocked.remedy == "the adapter is blocked by rfkill: `rfkill unblock bluetooth`")
        #expect(LinuxBluetoothError(.switchAdapter(index: 0, up: false), code: ENODEV).description.hasPrefix("taking hci0 down: no such adapter"))
    }

    @Test("without a usual remedy: the operation and the system's message")
    func plain() {
        let error = LinuxBluetoothError(.transfer("sending an ATT PDU"), code: EMSGSIZE)
        #expect(error.remedy == nil)
        #expect(error.description == "sending an ATT PDU: Message too long")
    }

    @Test("check: non-negative results pass, -errno becomes the error")
    func check() throws {
        #expect(try LinuxBluetoothError.check(Int32(5), .listAdapters) == 5)
        #expect(throws: LinuxBluetoothError(.listAdapters, code: EAFNOSUPPORT)) {
            try LinuxBluetoothError.check(Int32(-EAFNOSUPPORT), .listAdapters)
        }
    }
}
