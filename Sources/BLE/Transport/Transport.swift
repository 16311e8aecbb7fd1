/// Which controller a manager drives, and in which mode (docs/architecture.md: kernel mode and
/// host mode).
///
/// ```swift
/// let central = CentralManager(transport: .userChannel(hci: 0))          // host mode on hci0
/// let sensor = CentralManager(transport: try Transport("tcp:127.0.0.1:9000"))
/// let radio = VirtualRadio()
/// let a = CentralManager(transport: .virtual(radio))                      // both on one radio
/// let b = CentralManager(transport: .virtual(radio))
/// ```
///
/// - ``kernel(hci:)``: kernel mode, the kernel owns adapter hciN (Core v5.4's HCI through
///   `AF_BLUETOOTH` sockets: the raw HCI channel for scanning and advertising, L2CAP sockets on
///   the ATT fixed channel for links). The adapter must be up with LE; the process needs
///   CAP_NET_RAW, and a peripheral manager the adapter's ATT channel free (bluetoothd listens on
///   it).
/// - ``userChannel(hci:)``: host mode on hciN's HCI user channel (`HCI_CHANNEL_USER`): the
///   adapter is taken down first, and the process needs CAP_NET_ADMIN with no bluetoothd
///   holding the adapter.
/// - ``serial(path:baudRate:flowControl:)``: host mode on a UART controller speaking H4 (Vol 4,
///   Part A), `baudRate` in bits per second (1 000 000 by default).
/// - ``tcp(host:port:)``: host mode on a controller served as H4 over TCP (`blectl
///   virtual-controller`, Bumble, an HCI bridge).
/// - ``virtual(_:)``: host mode on a new controller of this in-process ``VirtualRadio``;
///   timeouts then run on the radio's clock.
public enum Transport: Sendable, Equatable, CustomStringConvertible {
    /// Hardware flow control on a serial line.
    public enum FlowControl: Sendable, Hashable {
        /// None: the controller must keep up.
        case none
        /// RTS/CTS (CRTSCTS).
        case rtsCts
    }

    /// Kernel mode on adapter hci`hci` (0...65534).
    case kernel(hci: UInt16)
    /// Host mode on adapter hci`hci`'s HCI user channel.
    case userChannel(hci: UInt16)
    /// Host mode on the H4 UART at `path` ("/dev/ttyACM0"), at `baudRate` bits per second.
    case serial(path: String, baudRate: Int = 1_000_000, flowControl: FlowControl = .none)
    /// Host mode on H4 over TCP to `host` (a numeric IPv4 or IPv6 address, or localhost) and `port`.
    case tcp(host: String, port: UInt16)
    /// Host mode on a new controller of `radio`.
    case virtual(VirtualRadio)

    /// Whether this process owns the controller (host mode): all but ``kernel(hci:)``.
    public var isHostMode: Bool {
        if case .kernel = self { return false }
        return true
    }

    /// The `--transport` word of this transport: "kernel:hci0", "user:hci0",
    /// "h4:/dev/ttyACM0@1000000,rtscts", "tcp:127.0.0.1:9000", "virtual".
    public var description: String {
        switch self {
        case .kernel(let hci): return "kernel:hci\(hci)"
        case .userChannel(let hci): return "user:hci\(hci)"
        case let .serial(path, baud, flow): return "h4:\(path)@\(baud)\(flow == .rtsCts ? ",rtscts" : "")"
        case let .tcp(host, port): return host.contains(":") ? "tcp:[\(host)]:\(port)" : "tcp:\(host):\(port)"
        case .virtual: return "virtual"
        }
    }

    /// Equal when of the same kind with equal parameters; two ``virtual(_:)`` transports are
    /// equal when they name the same radio.
    public static func == (lhs: Transport, rhs: Transport) -> Bool {
        switch (lhs, rhs) {
        case let (.kernel(a), .kernel(b)), let (.userChannel(a), .userChannel(b)): return a == b
        case let (.serial(p1, b1, f1), .serial(p2, b2, f2)): return p1 == p2 && b1 == b2 && f1 == f2
        case let (.tcp(h1, p1), .tcp(h2, p2)): return h1 == h2 && p1 == p2
        case let (.virtual(r1), .virtual(r2)): return r1 === r2
        default: return false
        }
    }
}
