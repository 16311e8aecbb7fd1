import CBluetoothLinux
import Synchronization

/// One AF_BLUETOOTH socket descriptor, owned: closed when the value is released (or by
/// ``close()``). Opened non-blocking and close-on-exec; readiness comes from DispatchSource in
/// the layers that do I/O on it.
public final class BluetoothSocket: Sendable {
    /// The file descriptor, valid until the socket is closed.
    public let descriptor: Int32
    private let closed = Mutex<Bool>(false)

    /// An HCI socket (AF_BLUETOOTH, SOCK_RAW, BTPROTO_HCI), not yet bound.
    ///
    /// - Parameter operation: what the socket is for, named in the error.
    /// - Throws: ``LinuxBluetoothError``: EAFNOSUPPORT without kernel Bluetooth, EPERM/EACCES.
    public init(hci operation: LinuxBluetoothError.Operation) throws(LinuxBluetoothError) {
        descriptor = Int32(try LinuxBluetoothError.check(cbl_hci_socket(), operation))
    }

    /// An L2CAP socket (AF_BLUETOOTH, SOCK_SEQPACKET, BTPROTO_L2CAP), not yet bound.
    ///
    /// - Throws: ``LinuxBluetoothError``: EAFNOSUPPORT without kernel Bluetooth.
    public init(l2cap operation: String) throws(LinuxBluetoothError) {
        descriptor = Int32(try LinuxBluetoothError.check(cbl_l2cap_socket(), .l2cap(operation)))
    }

    /// Takes ownership of `descriptor` (one returned by accept).
    init(adopting descriptor: Int32) {
        self.descriptor = descriptor
    }

    /// Closes the descriptor; closing again does nothing.
    public func close() {
        let wasOpen = closed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        if wasOpen { _ = cbl_close(descriptor) }
    }

    /// Whether ``close()`` has run.
    public var isClosed: Bool { closed.withLock { $0 } }

    deinit { close() }
}
