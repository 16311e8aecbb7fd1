import Host
import LinuxBluetooth

#if canImport(Glibc)
import Glibc
#endif

/// Why kernel mode could not open an adapter, as the ``ManagerState`` it leaves and the
/// ``BLEError`` whose text says what to do (the module, the capability, bluetoothd, rfkill).
enum KernelModeOpening {
    /// Adapter hci`hci`, up and with LE.
    ///
    /// - Throws: ``BackendFailure``: ``ManagerState/unsupported`` without kernel Bluetooth, for
    ///   no such adapter, and for one without LE; ``ManagerState/poweredOff`` when it is down.
    static func adapter(_ hci: UInt16) throws(BackendFailure) -> HCIAdapterInfo {
        let adapter: HCIAdapterInfo
        do { adapter = try HCIAdapters.adapter(hci) } catch {
            switch error.code {
            case EAFNOSUPPORT:
                throw BackendFailure(state: .unsupported, error: .unsupported(
                    "this kernel has no Bluetooth (AF_BLUETOOTH); load the bluetooth module, or use host mode (.serial, .tcp, .virtual)"))
            case ENODEV:
                throw BackendFailure(state: .unsupported, error: .unsupported("there is no hci\(hci); `blectl list` shows the adapters"))
            default:
                throw failure(error, hci: hci)
            }
        }
        // A down adapter's features are not read yet, so "up" comes first (an rfkill block
        // keeps it down too).
        guard adapter.isUp else { throw BackendFailure(state: .poweredOff, error: .poweredOff) }
        guard adapter.supportsLE else {
            throw BackendFailure(state: .unsupported, error: .unsupported("hci\(hci) (\(adapter.name)) does not support LE"))
        }
        return adapter
    }

    /// The state and error for a system call on hci`hci` that failed.
    static func failure(_ error: LinuxBluetoothError, hci: UInt16) -> BackendFailure {
        switch error.code {
        case EPERM, EACCES:
            return BackendFailure(state: .unauthorized, error: .unauthorized(
                "\(error); kernel mode needs CAP_NET_RAW for hci\(hci)'s raw HCI channel (run as root, or grant it with setcap cap_net_raw+ep)"))
        case ERFKILL, ENETDOWN:
            return BackendFailure(state: .poweredOff, error: .poweredOff)
        default:
            return BackendFailure(state: .unsupported, error: .unsupported("hci\(hci): \(error)"))
        }
    }

    /// The state and error for reading the controller's capabilities through the raw channel:
    /// the kernel refuses commands there without CAP_NET_RAW (EPERM), and a down adapter with
    /// ENETDOWN.
    static func failure(_ error: HCICommandError, hci: UInt16) -> BackendFailure {
        if let capabilities = ProcessCapabilities.effective, !capabilities.contains(.netRaw) {
            return BackendFailure(state: .unauthorized, error: .unauthorized(
                "kernel mode sends HCI commands on hci\(hci)'s raw channel, which needs CAP_NET_RAW (run as root, or grant it with setcap cap_net_raw+ep)"))
        }
        return BackendFailure(state: .unsupported, error: .unsupported("reading hci\(hci)'s LE capabilities: \(error)"))
    }

    /// The state and error for the ATT listener a peripheral manager needs: EADDRINUSE means
    /// another process (bluetoothd, as a rule) serves GATT on the adapter.
    static func listenerFailure(_ error: LinuxBluetoothError, hci: UInt16) -> BackendFailure {
        guard error.code == EADDRINUSE else { return failure(error, hci: hci) }
        return BackendFailure(state: .unauthorized, error: .unauthorized(
            "another process listens on hci\(hci)'s ATT channel; stop bluetoothd (systemctl stop bluetooth) to serve GATT from this one"))
    }
}
