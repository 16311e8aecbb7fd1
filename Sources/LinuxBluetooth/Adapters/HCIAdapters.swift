#if canImport(Glibc)
import Glibc
#endif
import CBluetoothLinux

/// The kernel's Bluetooth adapters, read through an HCI socket's ioctls (HCIGETDEVLIST,
/// HCIGETDEVINFO; Linux include/net/bluetooth/hci_sock.h), which need no capability and no
/// daemon; and brought up or down with HCIDEVUP and HCIDEVDOWN, which need CAP_NET_ADMIN.
public enum HCIAdapters {
    /// The most adapters one listing returns (the kernel's own HCI_MAX_DEV is 16).
    public static let maximumCount: UInt16 = 16

    /// Every adapter the kernel has, in index order.
    ///
    /// - Throws: ``LinuxBluetoothError`` (operation ``LinuxBluetoothError/Operation/listAdapters``):
    ///   EAFNOSUPPORT when the kernel has no Bluetooth, or the ioctl's errno.
    public static func list() throws(LinuxBluetoothError) -> [HCIAdapterInfo] {
        let socket = try BluetoothSocket(hci: .listAdapters)
        var ids = [UInt16](repeating: 0, count: Int(maximumCount))
        let count = try LinuxBluetoothError.check(cbl_hci_device_list(socket.descriptor, &ids, maximumCount), .listAdapters)
        var adapters: [HCIAdapterInfo] = []
        for id in ids.prefix(Int(count)) {
            do {
                adapters.append(try info(id, on: socket))
            } catch where error.code == ENODEV {
                continue            // removed between the listing and its reading: not an adapter any more
            }
        }
        return adapters.sorted { $0.index < $1.index }
    }

    /// Adapter hci`index`.
    ///
    /// - Throws: ``LinuxBluetoothError``: ENODEV when there is no such adapter (its remedy says to
    ///   list them), EAFNOSUPPORT when the kernel has no Bluetooth.
    public static func adapter(_ index: UInt16) throws(LinuxBluetoothError) -> HCIAdapterInfo {
        try info(index, on: try BluetoothSocket(hci: .readAdapter(index: index)))
    }

    /// Brings adapter hci`index` up with the legacy HCIDEVUP ioctl. An adapter already up is
    /// left as it is. On a dual-mode controller this leaves LE off (the kernel only turns LE on
    /// through the management channel): kernel mode powers on with
    /// ``ManagementChannel/powerOn(timeout:)`` instead; this call is for tools that want the
    /// ioctl's behaviour.
    ///
    /// - Throws: ``LinuxBluetoothError`` (operation
    ///   ``LinuxBluetoothError/Operation/switchAdapter(index:up:)``): EPERM without CAP_NET_ADMIN,
    ///   ENODEV when there is no such adapter, ERFKILL when rfkill blocks it, EAFNOSUPPORT when
    ///   the kernel has no Bluetooth.
    public static func up(_ index: UInt16) throws(LinuxBluetoothError) {
        let operation = LinuxBluetoothError.Operation.switchAdapter(index: index, up: true)
        let socket = try BluetoothSocket(hci: operation)
        let result = cbl_hci_device_up(socket.descriptor, index)
        if result == -EALREADY { return }
        _ = try LinuxBluetoothError.check(result, operation)
    }

    /// Takes adapter hci`index` down with the HCIDEVDOWN ioctl: its links are dropped and the
    /// kernel stops using it. An adapter must be down before its user channel can be bound
    /// (host mode; the kernel answers EBUSY otherwise).
    ///
    /// - Throws: ``LinuxBluetoothError`` (operation
    ///   ``LinuxBluetoothError/Operation/switchAdapter(index:up:)``): EPERM without CAP_NET_ADMIN,
    ///   ENODEV when there is no such adapter, EAFNOSUPPORT when the kernel has no Bluetooth.
    public static func down(_ index: UInt16) throws(LinuxBluetoothError) {
        let operation = LinuxBluetoothError.Operation.switchAdapter(index: index, up: false)
        let socket = try BluetoothSocket(hci: operation)
        _ = try LinuxBluetoothError.check(cbl_hci_device_down(socket.descriptor, index), operation)
    }

    private static func info(_ index: UInt16, on socket: BluetoothSocket) throws(LinuxBluetoothError) -> HCIAdapterInfo {
        var raw = hci_dev_info()
        _ = try LinuxBluetoothError.check(cbl_hci_device_info(socket.descriptor, index, &raw), .readAdapter(index: index))
        return HCIAdapterInfo(raw)
    }
}
