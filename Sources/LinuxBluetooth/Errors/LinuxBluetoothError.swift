#if canImport(Glibc)
import Glibc
#endif

/// A failed system call on a Linux Bluetooth socket: what was being done, the errno the kernel
/// gave, and what to do about it. Kernel mode's errors are the kernel's; this type names them
/// and adds the remedy (the capability to grant, the daemon to stop, the adapter to list).
///
/// ```swift
/// do { _ = try HCIAdapters.list() } catch { print(error) }
/// // listing Bluetooth adapters: this kernel has no Bluetooth (AF_BLUETOOTH: Address family not
/// // supported by protocol); load the bluetooth module, or use a kernel built with CONFIG_BT
/// ```
public struct LinuxBluetoothError: Error, Hashable, Sendable, CustomStringConvertible {
    /// What the stack was doing when the call failed.
    public enum Operation: Hashable, Sendable, CustomStringConvertible {
        /// Opening an HCI socket, or listing or reading the adapters through it.
        case listAdapters
        /// Reading the information of adapter `index` (hciN).
        case readAdapter(index: UInt16)
        /// Binding an HCI socket to adapter `index` on a channel (raw 0, user 1, monitor 2, control 3).
        case bindHCI(index: UInt16?, channel: UInt16)
        /// Bringing adapter `index` up (`up` true, HCIDEVUP) or down (HCIDEVDOWN) with the legacy ioctls.
        case switchAdapter(index: UInt16, up: Bool)
        /// Opening, binding, connecting or listening on an L2CAP socket.
        case l2cap(String)
        /// Sending or receiving on an open socket or byte stream.
        case transfer(String)
        /// Opening or configuring a serial port for an H4 UART controller: "opening the serial
        /// port /dev/ttyACM0", with the path.
        case serialPort(String)
        /// Connecting to, or listening on, a TCP address for an H4 stream: "connecting to
        /// 127.0.0.1:9000", with the host and port.
        case tcp(String)

        /// "listing Bluetooth adapters", "binding hci0 to the raw channel", ...
        public var description: String {
            switch self {
            case .listAdapters: return "listing Bluetooth adapters"
            case .readAdapter(let index): return "reading hci\(index)"
            case .bindHCI(let index, let channel):
                let name = ["raw", "user", "monitor", "control"].indices.contains(Int(channel))
                    ? ["raw", "user", "monitor", "control"][Int(channel)] : "channel \(channel)"
                guard let index else { return "opening the HCI \(name) channel" }
                return "binding hci\(index) to the \(name) channel"
            case .switchAdapter(let index, let up): return up ? "bringing hci\(index) up" : "taking hci\(index) down"
            case .l2cap(let what): return what
            case .transfer(let what): return what
            case .serialPort(let what): return what
            case .tcp(let what): return what
            }
        }
    }

    /// What failed.
    public var operation: Operation
    /// The errno value (positive), as the kernel returned it.
    public var code: Int32

    /// An error for `operation` that failed with errno `code`.
    public init(_ operation: Operation, code: Int32) {
        self.operation = operation
        self.code = code
    }

    /// The C library's text for ``code``: "Operation not permitted", ...
    public var systemMessage: String { String(cString: strerror(code)) }

    /// What to do, when there is a usual remedy; nil otherwise.
    public var remedy: String? {
        switch operation {
        case .serialPort: return serialPortRemedy
        case .tcp: return tcpRemedy
        default: break
        }
        switch code {
        case EAFNOSUPPORT:
            return "this kernel has no Bluetooth (AF_BLUETOOTH); load the bluetooth module, or use a kernel built with CONFIG_BT"
        case EPERM, EACCES:
            switch operation {
            case .bindHCI(_, let channel) where channel == 1 || channel == 3:
                return "the \(channel == 1 ? "user" : "control") channel needs CAP_NET_ADMIN: run as root, or "
                    + "`sudo setcap cap_net_raw,cap_net_admin+eip $(command -v blectl)`"
            case .l2cap:
                return "the link's security refused it; retry with --security medium or high"
            case .switchAdapter:
                return "bringing an adapter up or down needs CAP_NET_ADMIN: run as root, or "
                    + "`sudo setcap cap_net_raw,cap_net_admin+eip $(command -v blectl)`"
            default:
                return "raw Bluetooth sockets need CAP_NET_RAW: run as root, or "
                    + "`sudo setcap cap_net_raw,cap_net_admin+eip $(command -v blectl)`"
            }
        case EBUSY:
            switch operation {
            case .bindHCI(let index?, let channel) where channel == 1:
                return "hci\(index) is held (by bluetoothd, or by the kernel while it is up): stop bluetoothd "
                    + "(`sudo systemctl stop bluetooth`) and power it off (`blectl --hci \(index) power off`)"
            case .switchAdapter(let index, false):
                return "another process has hci\(index)'s user channel open: end it first"
            default:
                return "the adapter is in use: stop bluetoothd (`sudo systemctl stop bluetooth`) and power the "
                    + "adapter off before opening its user channel"
            }
        case ERFKILL:
            return "the adapter is blocked by rfkill: `rfkill unblock bluetooth`"
        case ENODEV:
            return "no such adapter: `blectl list` shows the adapters"
        case ENETDOWN:
            return "the adapter is down: `blectl power on`"
        case ETIMEDOUT, EHOSTDOWN:
            return "the peer did not answer: check that it is advertising, connectable and in range"
        case ECONNREFUSED:
            return "the peer refused the connection"
        default:
            return nil
        }
    }

    /// What to do when opening or configuring a serial port failed.
    private var serialPortRemedy: String? {
        switch code {
        case ENOENT: return "no such device: check the path (`ls /dev/ttyACM* /dev/ttyUSB*`)"
        case EACCES, EPERM:
            return "no permission on the device: add the user to the dialout group (`sudo usermod -aG dialout $USER`) or run as root"
        case EBUSY: return "another process holds the port exclusively: end it (a terminal program, ModemManager)"
        case ENOTTY: return "not a terminal: give the UART's tty (for example /dev/ttyACM0)"
        case ENXIO, ENODEV, EIO: return "the device is gone: check that it is plugged in"
        default: return nil
        }
    }

    /// What to do when connecting to, or listening on, a TCP address failed.
    private var tcpRemedy: String? {
        switch code {
        case ECONNREFUSED: return "nothing listens there: start the H4 server (the controller's bridge) first, or check the port"
        case ETIMEDOUT: return "no answer: check the host, the port and any firewall"
        case EHOSTUNREACH, ENETUNREACH: return "no route to the host: check the address and the network"
        case EADDRINUSE: return "the port is taken: choose another, or port 0 for a free one"
        case EADDRNOTAVAIL: return "this machine has no such address: listen on one of its own, or 0.0.0.0"
        case EINVAL: return "give a numeric IPv4 or IPv6 address, or localhost (names are not resolved)"
        default: return nil
        }
    }

    /// "OPERATION: REMEDY (SYSTEM MESSAGE)", or "OPERATION: SYSTEM MESSAGE" without a remedy.
    public var description: String {
        if let remedy { return "\(operation): \(remedy) (\(systemMessage))" }
        return "\(operation): \(systemMessage)"
    }

    /// Turns a wrapper's result (non-negative, or -errno) into its value or this error.
    static func check<T: SignedInteger>(_ result: T, _ operation: Operation) throws(LinuxBluetoothError) -> T {
        guard result >= 0 else { throw LinuxBluetoothError(operation, code: Int32(truncatingIfNeeded: 0 - result)) }
        return result
    }
}
