import Glibc
import Testing
import CBluetoothLinux

/// The wrappers return -errno on failure and the call's result on success. The Bluetooth calls
/// themselves run in the kernel lane; here the generic ones run on a Unix socket pair, and the
/// Bluetooth socket call is checked to fail the way this kernel fails it.
@Suite("CBluetoothLinux wrappers")
struct WrapperTests {
    @Test("send, recv, SO_ERROR and close keep their results and errno")
    func data() throws {
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue) | Int32(SOCK_NONBLOCK.rawValue), 0, &pair) == 0)
        let sent = [UInt8]([0x0a, 0x03, 0x00])
        #expect(sent.withUnsafeBytes { cbl_send(pair[0], $0.baseAddress, $0.count) } == 3)
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = buffer.withUnsafeMutableBytes { cbl_recv(pair[1], $0.baseAddress, $0.count) }
        #expect(count == 3)
        #expect(Array(buffer.prefix(3)) == sent)
        #expect(buffer.withUnsafeMutableBytes { cbl_recv(pair[1], $0.baseAddress, $0.count) } == -Int(EAGAIN))
        #expect(cbl_socket_error(pair[0]) == 0)
        #expect(cbl_close(pair[0]) == 0)
        #expect(cbl_close(pair[0]) == -EBADF)
        // The peer closed: a send fails with EPIPE, as a result, never as SIGPIPE (MSG_NOSIGNAL).
        #expect(sent.withUnsafeBytes { cbl_send(pair[1], $0.baseAddress, $0.count) } == -Int(EPIPE))
        #expect(cbl_close(pair[1]) == 0)
    }

    @Test("an AF_BLUETOOTH socket: a descriptor, or -errno (EAFNOSUPPORT where the kernel has no Bluetooth)")
    func bluetoothSocket() {
        let fd = cbl_hci_socket()
        if fd >= 0 {
            #expect(cbl_close(fd) == 0)
        } else {
            #expect([-EAFNOSUPPORT, -EPERM, -EACCES].contains(fd))
        }
        #expect(cbl_listen(-1, 1) == -EBADF)
        #expect(cbl_set_security(-1, UInt8(BT_SECURITY_MEDIUM)) == -EBADF)
        var ids = [UInt16](repeating: 0, count: 4)
        #expect(cbl_hci_device_list(-1, &ids, 4) == -EBADF)
        #expect(cbl_hci_device_list(-1, &ids, 0) == 0)
    }

    @Test("HCIDEVUP and HCIDEVDOWN: -errno from the ioctl (EBADF; ENOTTY on a socket that is not Bluetooth's)")
    func upAndDown() {
        #expect(cbl_hci_device_up(-1, 0) == -EBADF)
        #expect(cbl_hci_device_down(-1, 0) == -EBADF)
        var pair: [Int32] = [0, 0]
        #expect(socketpair(AF_UNIX, Int32(SOCK_SEQPACKET.rawValue), 0, &pair) == 0)
        #expect(cbl_hci_device_up(pair[0], 0) == -ENOTTY)
        #expect(cbl_hci_device_down(pair[0], 0) == -ENOTTY)
        _ = cbl_close(pair[0]); _ = cbl_close(pair[1])
    }
}
