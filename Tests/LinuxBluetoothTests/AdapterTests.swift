import Glibc
import Testing
import BLECore
import CBluetoothLinux
@testable import LinuxBluetooth

@Suite("Adapters")
struct AdapterTests {
    @Test("hci_dev_info: name, address (stored least significant octet first), HCI_UP, LE from LMP feature bit 38")
    func deviceInfo() {
        var raw = hci_dev_info()
        raw.dev_id = 1
        withUnsafeMutableBytes(of: &raw.name) { $0.copyBytes(from: Array("hci1".utf8)) }
        withUnsafeMutableBytes(of: &raw.bdaddr) { $0.copyBytes(from: [0x01, 0x00, 0x01, 0x01, 0xAA, 0x00]) }
        raw.flags = 1 << HCI_UP | 1 << HCI_RUNNING
        withUnsafeMutableBytes(of: &raw.features) { $0.copyBytes(from: [0xff, 0xff, 0x8f, 0xfe, 0xdb, 0xff, 0x5b, 0x87]) }
        let adapter = HCIAdapterInfo(raw)
        #expect(adapter.index == 1)
        #expect(adapter.name == "hci1")
        #expect(adapter.address.description == "00:AA:01:01:00:01")
        #expect(adapter.isUp)
        #expect(adapter.supportsLE)                          // 0xdb: bit 6 of octet 4 set
        #expect(adapter.description == "hci1 00:AA:01:01:00:01 up LE")

        raw.flags = 0
        withUnsafeMutableBytes(of: &raw.features) { $0.copyBytes(from: [0xff, 0xff, 0x8f, 0xfe, 0x9b, 0, 0, 0]) }
        let down = HCIAdapterInfo(raw)
        #expect(!down.isUp)
        #expect(!down.supportsLE)                            // 0x9b: bit 6 clear
        #expect(down.description == "hci1 00:AA:01:01:00:01 down (no LE)")
    }

    @Test("features shorter than 5 octets read as no LE")
    func shortFeatures() {
        let adapter = HCIAdapterInfo(index: 0, name: "hci0", address: BluetoothAddress(0), flags: 0, lmpFeatures: [0xff])
        #expect(!adapter.supportsLE)
    }

    /// Runs where it is: on a kernel without Bluetooth (this project's build machines) the listing
    /// fails with EAFNOSUPPORT and says so; on one with Bluetooth it lists hci adapters.
    @Test("listing on this machine: adapters, or the typed error that says the kernel has no Bluetooth")
    func listHere() {
        do {
            let adapters = try HCIAdapters.list()
            #expect(adapters.allSatisfy { $0.name == "hci\($0.index)" })
        } catch {
            #expect(error.operation == .listAdapters)
            if error.code == EAFNOSUPPORT {
                #expect(error.description.hasPrefix("listing Bluetooth adapters: this kernel has no Bluetooth (AF_BLUETOOTH)"))
            }
        }
    }

    /// Only where the kernel has no Bluetooth (these build machines): the ioctls are the kernel
    /// lane's; taking a real adapter down from a unit test is not this test's business.
    @Test("up and down without kernel Bluetooth: the typed error names the adapter and the cause")
    func upDownHere() throws {
        let probe = cbl_hci_socket()
        if probe >= 0 { _ = cbl_close(probe); return }
        try #require(probe == -EAFNOSUPPORT)
        #expect(throws: LinuxBluetoothError(.switchAdapter(index: 0, up: true), code: EAFNOSUPPORT)) { try HCIAdapters.up(0) }
        #expect(throws: LinuxBluetoothError(.switchAdapter(index: 1, up: false), code: EAFNOSUPPORT)) { try HCIAdapters.down(1) }
    }
}
