import CBluetoothLinux
#if canImport(Glibc)
import Glibc
#endif

extension H4StreamTransport {
    /// Opens the serial port of a UART controller and frames H4 over it (host mode; Core v5.4,
    /// Vol 4, Part A, 2 and 3).
    ///
    /// The tty is opened with O_NOCTTY | O_NONBLOCK (it never becomes the controlling terminal,
    /// and the open does not wait for a carrier), made exclusive (TIOCEXCL: no other process
    /// opens it meanwhile), set to raw mode (cfmakeraw: 8N1, no echo, no line editing, no
    /// translation) with CLOCAL | CREAD, the configuration's speed in both directions and CRTSCTS
    /// as its flow control says, and flushed (TCIOFLUSH), so octets left from before are not
    /// taken for packets.
    ///
    /// - Parameters:
    ///   - maximumPacketSize: as ``init(adopting:name:maximumPacketSize:executor:)`` takes it.
    ///   - executor: the executor whose thread reads the port, as
    ///     ``init(adopting:name:maximumPacketSize:executor:)`` takes it; nil for a reader thread.
    /// - Throws: ``LinuxBluetoothError`` with operation ``LinuxBluetoothError/Operation/serialPort(_:)``
    ///   naming the path: ENOENT for no such device, EACCES without permission (the dialout
    ///   group), EBUSY when another process holds the port exclusively, ENOTTY when the path is
    ///   not a terminal.
    public static func open(serial configuration: SerialPortConfiguration,
                            maximumPacketSize: Int = 4 + 0xFFFF,
                            executor: HostExecutor? = nil) throws(LinuxBluetoothError) -> H4StreamTransport {
        let path = configuration.path
        let fd = Int32(try LinuxBluetoothError.check(cbl_tty_open(path), .serialPort("opening the serial port \(path)")))
        let configuring = LinuxBluetoothError.Operation.serialPort("configuring the serial port \(configuration)")
        let speed = cbl_tty_speed(UInt32(configuration.baudRate))
        var result = speed == 0 ? -EINVAL : cbl_tty_set_exclusive(fd)
        if result >= 0 { result = cbl_tty_configure(fd, speed, configuration.flowControl == .rtsCts ? 1 : 0) }
        if result >= 0 { result = cbl_tty_flush(fd) }
        guard result >= 0 else {
            _ = cbl_close(fd)
            throw LinuxBluetoothError(configuring, code: -result)
        }
        return try H4StreamTransport(adopting: fd, name: "serial \(path)", maximumPacketSize: maximumPacketSize, executor: executor)
    }
}
