import CBluetoothLinux

/// The kernel's Bluetooth adapters, read through an HCI socket's ioctls (HCIGETDEVLIST,
/// HCIGETDEVINFO; Linux include/net/bluetooth/hci_sock.h). Needs no capability and no daemon.
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
            adapters.append(try info(id, on: socket))
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

    private static func info(_ index: UInt16, on socket: BluetoothSocket) throws(LinuxBluetoothError) -> HCIAdapterInfo {
        var raw = hci_dev_info()
        _ = try LinuxBluetoothError.check(cbl_hci_device_info(socket.descriptor, index, &raw), .readAdapter(index: index))
        return HCIAdapterInfo(raw)
    }
}
