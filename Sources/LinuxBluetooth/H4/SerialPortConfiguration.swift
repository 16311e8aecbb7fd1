/// How to open the serial port of a UART controller for H4 (Core v5.4, Vol 4, Part A, 2 and 3:
/// 8 data bits, no parity, 1 stop bit, RTS/CTS flow control where the controller uses it; the
/// baud rate is the controller's): the tty's path, the baud rate, and the flow control.
///
/// ```swift
/// let port = try SerialPortConfiguration(path: "/dev/ttyACM0", baudRate: 1_000_000, flowControl: .rtsCts)
/// let transport = try H4StreamTransport.open(serial: port)
/// ```
public struct SerialPortConfiguration: Hashable, Sendable, CustomStringConvertible {
    /// Hardware flow control on the line.
    public enum FlowControl: Hashable, Sendable {
        /// None: the controller must keep up (CRTSCTS cleared).
        case none
        /// RTS/CTS (CRTSCTS set): the controller holds the host with CTS, and the host the
        /// controller with RTS. Zephyr's HCI UART firmware for the nRF52 uses it by default.
        case rtsCts
    }

    /// A baud rate that is not one of ``SerialPortConfiguration/supportedBaudRates``.
    public struct UnsupportedBaudRate: Error, Hashable, Sendable, CustomStringConvertible {
        /// The rate asked for, in bits per second.
        public let baudRate: Int
        /// The rates that are supported, in bits per second, ascending.
        public let supported: [Int]

        /// "unsupported baud rate 12345; the supported rates are 9600, 19200, ..., 4000000".
        public var description: String {
            "unsupported baud rate \(baudRate); the supported rates are "
                + supported.map(String.init).joined(separator: ", ")
        }
    }

    /// The standard speeds that Linux's termios names (B9600 ... B4000000), in bits per second.
    public static let supportedBaudRates = [
        9600, 19200, 38400, 57600, 115_200, 230_400, 460_800, 500_000, 576_000, 921_600,
        1_000_000, 1_152_000, 1_500_000, 2_000_000, 2_500_000, 3_000_000, 3_500_000, 4_000_000,
    ]

    /// The tty, for example "/dev/ttyACM0" or "/dev/ttyUSB0".
    public let path: String
    /// The baud rate in bits per second, one of ``supportedBaudRates``.
    public let baudRate: Int
    /// Hardware flow control.
    public let flowControl: FlowControl

    /// A configuration for the tty at `path`.
    ///
    /// - Parameters:
    ///   - baudRate: bits per second; 1 000 000 by default (the usual speed of HCI UART firmware).
    ///   - flowControl: ``FlowControl/none`` by default.
    /// - Throws: ``UnsupportedBaudRate`` naming the rate and the supported ones when `baudRate`
    ///   is not one of ``supportedBaudRates``.
    public init(path: String, baudRate: Int = 1_000_000, flowControl: FlowControl = .none) throws(UnsupportedBaudRate) {
        guard Self.supportedBaudRates.contains(baudRate) else {
            throw UnsupportedBaudRate(baudRate: baudRate, supported: Self.supportedBaudRates)
        }
        self.path = path
        self.baudRate = baudRate
        self.flowControl = flowControl
    }

    /// "/dev/ttyACM0 at 1000000 baud, RTS/CTS" (or "no flow control").
    public var description: String {
        "\(path) at \(baudRate) baud, \(flowControl == .rtsCts ? "RTS/CTS" : "no flow control")"
    }
}
