import Testing
import CBluetoothLinux

/// The C shim sees libbluetooth-dev's headers as the kernel ABI defines them: the constants and
/// socket address layouts that kernel mode builds on (include/net/bluetooth/*.h in Linux).
@Suite("CBluetoothLinux headers")
struct HeaderTests {
    @Test("address family, protocols and HCI channels")
    func constants() {
        #expect(AF_BLUETOOTH == 31)
        #expect(BTPROTO_L2CAP == 0)
        #expect(BTPROTO_HCI == 1)
        #expect(HCI_CHANNEL_RAW == 0)
        #expect(HCI_CHANNEL_USER == 1)
        #expect(HCI_CHANNEL_MONITOR == 2)
        #expect(HCI_CHANNEL_CONTROL == 3)
        #expect(BT_SECURITY == 4)
        #expect(BDADDR_LE_PUBLIC == 0x01)
        #expect(BDADDR_LE_RANDOM == 0x02)
    }

    @Test("socket address layouts: sockaddr_hci is 6 octets, sockaddr_l2 is 14")
    func layouts() {
        #expect(cbl_sockaddr_hci_size() == 6)
        #expect(cbl_sockaddr_l2_size() == 14)
        #expect(MemoryLayout<sockaddr_hci>.size == 6)
        #expect(MemoryLayout<sockaddr_l2>.size == 14)
        #expect(MemoryLayout<bdaddr_t>.size == 6)
    }
}
