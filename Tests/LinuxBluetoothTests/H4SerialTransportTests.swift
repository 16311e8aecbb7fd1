import BLECore
import CBluetoothLinux
import Glibc
import HCI
import Host
import Testing
@testable import LinuxBluetooth

/// The serial port path of the H4 transport, on a pseudo-terminal: the transport opens the
/// slave as it would a UART's tty; the test plays the controller on the master.
@Suite("H4StreamTransport: serial", .timeLimit(.minutes(1)))
struct H4SerialTransportTests {
    /// A pseudo-terminal's master (non-blocking) and its slave's path.
    static func pseudoTerminal() throws -> (master: Int32, path: String) {
        var name = [CChar](repeating: 0, count: 128)
        let master = cbl_pty_open(&name, name.count)
        try #require(master >= 0)
        return (master, String(decoding: name.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self))
    }

    @Test("packets both ways through the pty")
    func packetsBothWays() async throws {
        let (master, path) = try Self.pseudoTerminal()
        let host = try H4StreamTransport.open(serial: SerialPortConfiguration(path: path, baudRate: 115_200))
        let controller = try H4StreamTransport(adopting: master, name: "pty master")
        #expect(host.name == "serial \(path)")
        let reset = try h4Packet("01 03 0c 00")                              // Command: HCI_Reset
        try await host.send(reset)
        #expect(await receive(1, from: controller) == [reset])
        // Octets a cooked tty would translate: 0x0D (CR), 0x0A (LF), 0x03 (^C), 0x11 (XON), 0x7F (DEL).
        let events = [try h4Packet("04 0e 04 01 03 0c 00"),                  // Command Complete (Reset)
                      aclPacket(count: 300),                                  // ACL, every octet value
                      try h4Packet("04 ff 05 0d 0a 03 11 7f")]                // Vendor event with control octets
        for event in events { try await controller.send(event) }
        #expect(await receive(3, from: host) == events)
        #expect(host.diagnosticCount == 0)
        await controller.close()
        await host.close()
    }

    @Test("the tty is set raw, exclusive, at the baud rate, with RTS/CTS (read back with tcgetattr)")
    func termiosFlags() async throws {
        let (master, path) = try Self.pseudoTerminal()
        defer { close(master) }
        let host = try H4StreamTransport.open(serial: SerialPortConfiguration(path: path, baudRate: 1_000_000, flowControl: .rtsCts))
        var settings = termios()
        try #require(tcgetattr(host.descriptor, &settings) == 0)
        #expect(cfgetospeed(&settings) == speed_t(B1000000))
        #expect(cfgetispeed(&settings) == speed_t(B1000000))
        #expect(cbl_tty_baud_rate(UInt32(cfgetospeed(&settings))) == 1_000_000)
        #expect(settings.c_cflag & tcflag_t(CRTSCTS) != 0)
        #expect(settings.c_cflag & tcflag_t(CSIZE) == tcflag_t(CS8))
        #expect(settings.c_cflag & tcflag_t(PARENB) == 0)
        #expect(settings.c_cflag & tcflag_t(CLOCAL | CREAD) == tcflag_t(CLOCAL | CREAD))
        #expect(settings.c_lflag & tcflag_t(ICANON | ECHO | ISIG | IEXTEN) == 0)
        #expect(settings.c_iflag & tcflag_t(IXON | ICRNL | INLCR | ISTRIP | BRKINT) == 0)
        #expect(settings.c_oflag & tcflag_t(OPOST) == 0)
        #expect(cbl_tty_is_exclusive(host.descriptor) == 1)
        let flags = fcntl(host.descriptor, F_GETFL)
        #expect(flags & O_NONBLOCK != 0)
        await host.close()

        let (master2, path2) = try Self.pseudoTerminal()
        defer { close(master2) }
        let plain = try H4StreamTransport.open(serial: SerialPortConfiguration(path: path2, baudRate: 9600))
        var plainSettings = termios()
        try #require(tcgetattr(plain.descriptor, &plainSettings) == 0)
        #expect(plainSettings.c_cflag & tcflag_t(CRTSCTS) == 0)
        #expect(cfgetospeed(&plainSettings) == speed_t(B9600))
        await plain.close()
    }

    @Test("opening flushes what the tty held from before: the first packet is the one sent after")
    func flushOnOpen() async throws {
        let (master, path) = try Self.pseudoTerminal()
        // Another opener sets the line raw, and a packet arrives before the transport opens.
        let before = open(path, O_RDWR | O_NOCTTY | O_NONBLOCK)
        try #require(before >= 0)
        var raw = termios()
        try #require(tcgetattr(before, &raw) == 0)
        cfmakeraw(&raw)
        try #require(tcsetattr(before, TCSANOW, &raw) == 0)
        let stale = try h4Packet("04 0e 04 01 01 10 00")                     // Command Complete (Read Local Version): stale
        writeAll(master, stale.h4Encoded)
        var entry = pollfd(fd: before, events: Int16(POLLIN), revents: 0)
        try #require(poll(&entry, 1, 5000) == 1)                              // it waits in the tty's input
        let host = try H4StreamTransport.open(serial: SerialPortConfiguration(path: path, baudRate: 115_200))
        close(before)
        let fresh = try h4Packet("04 0e 04 01 03 0c 00")                     // Command Complete (Reset)
        writeAll(master, fresh.h4Encoded)
        #expect(await receive(1, from: host) == [fresh])
        #expect(host.diagnosticCount == 0)
        await host.close()
        close(master)
    }

    @Test("the controller hanging up (the pty master closing) finishes packets")
    func hangUp() async throws {
        let (master, path) = try Self.pseudoTerminal()
        let host = try H4StreamTransport.open(serial: SerialPortConfiguration(path: path))
        close(master)
        var packets = host.packets.makeAsyncIterator()
        #expect(await packets.next() == nil)
        #expect(host.isClosed)
        await #expect(throws: HCITransportError.closed) { try await host.send(try h4Packet("01 03 0c 00")) }
    }

    @Test("a path that does not exist: ENOENT, with the path and what to check")
    func missingPath() throws {
        let path = "/dev/ttyLinuxBLE-none-\(UInt32.random(in: 0...UInt32.max))"
        let configuration = try SerialPortConfiguration(path: path, baudRate: 115_200)
        do {
            _ = try H4StreamTransport.open(serial: configuration)
            Issue.record("opened \(path)")
        } catch {
            #expect(error.code == ENOENT)
            #expect(error.operation == .serialPort("opening the serial port \(path)"))
            #expect(error.description.contains(path))
            #expect(error.description.contains("no such device: check the path"))
        }
    }

    @Test("a path that is not a terminal: ENOTTY, saying to give the UART's tty")
    func notATerminal() throws {
        let configuration = try SerialPortConfiguration(path: "/dev/null")
        do {
            _ = try H4StreamTransport.open(serial: configuration)
            Issue.record("opened /dev/null as a serial port")
        } catch {
            #expect(error.code == ENOTTY)
            #expect(error.description.hasPrefix("configuring the serial port /dev/null at 1000000 baud, no flow control: not a terminal"))
        }
    }

    @Test("an unsupported baud rate is a typed error naming it and the supported rates")
    func unsupportedBaudRate() {
        #expect(throws: SerialPortConfiguration.UnsupportedBaudRate(baudRate: 12_345, supported: SerialPortConfiguration.supportedBaudRates)) {
            _ = try SerialPortConfiguration(path: "/dev/ttyACM0", baudRate: 12_345)
        }
        let error = SerialPortConfiguration.UnsupportedBaudRate(baudRate: 12_345, supported: SerialPortConfiguration.supportedBaudRates)
        #expect(error.description.hasPrefix("unsupported baud rate 12345; the supported rates are 9600, 19200, 38400, 57600, 115200,"))
        #expect(error.description.hasSuffix("3500000, 4000000"))
    }

    @Test("every supported baud rate has its termios speed, and back")
    func speeds() {
        for rate in SerialPortConfiguration.supportedBaudRates {
            let speed = cbl_tty_speed(UInt32(rate))
            #expect(speed != 0, "\(rate)")
            #expect(cbl_tty_baud_rate(speed) == UInt32(rate), "\(rate)")
        }
        #expect(cbl_tty_speed(12_345) == 0)
        #expect(cbl_tty_speed(UInt32(B115200)) == 0 || B115200 == 115_200)   // a constant is not a rate
    }
}
