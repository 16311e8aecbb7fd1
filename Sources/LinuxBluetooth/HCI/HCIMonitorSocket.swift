#if canImport(Glibc)
import Glibc
#endif
import CBluetoothLinux
import Synchronization

/// The kernel's HCI monitor channel (HCI_CHANNEL_MONITOR, bound to HCI_DEV_NONE): every
/// adapter's traffic, as btmon reads it, read-only and beside whoever owns each controller.
/// Needs CAP_NET_RAW.
///
/// Each socket message is one frame: Opcode (2 octets), Index (2, the adapter hciN, 0xFFFF for
/// none), Data Length (2), all little-endian (Linux's `struct hci_mon_hdr`), then Data Length
/// octets. The opcodes are those of btsnoop datalink 2001 (Capture's `MonitorOpcode`): new,
/// deleted, opened and closed adapters with their details, and each HCI command, event and
/// ACL/SCO/ISO packet with its direction. The kernel first replays a New Index (and, for an
/// adapter that is up, an Open Index) for each adapter present, so a reader knows them all.
///
/// A frame whose header is cut short or whose Data Length disagrees with the message is not
/// delivered, and is counted in ``malformedFrames``; the frames around it still arrive.
///
/// ```swift
/// let monitor = try HCIMonitorSocket()
/// for await frame in monitor.frames { print(frame.opcode, frame.index, frame.payload.count) }
/// ```
public final class HCIMonitorSocket: Sendable {
    /// One monitor frame.
    public struct Frame: Sendable, Hashable {
        /// The monitor opcode (2: command, 3: event, 4/5: ACL sent/received, 0: new index, ...).
        public let opcode: UInt16
        /// The adapter index N of hciN; 0xFFFF (HCI_DEV_NONE) for frames of no adapter.
        public let index: UInt16
        /// The frame's data: an HCI packet without its H4 indicator, or the opcode's parameters.
        public let payload: [UInt8]
        /// When the frame was read, in microseconds since the Unix epoch (the kernel's frame
        /// carries no time of its own; this is the reader's clock at receipt).
        public let timestamp: Int64

        /// A frame; see the properties.
        public init(opcode: UInt16, index: UInt16, payload: [UInt8], timestamp: Int64) {
            self.opcode = opcode
            self.index = index
            self.payload = payload
            self.timestamp = timestamp
        }

        /// Parses one socket message: the 6-octet header, then exactly Data Length octets.
        ///
        /// - Returns: nil when the header is cut short or Data Length does not match.
        public init?(message: [UInt8], timestamp: Int64) {
            guard message.count >= 6 else { return nil }
            let length = Int(message[4]) | Int(message[5]) << 8
            guard message.count == 6 + length else { return nil }
            self.init(opcode: UInt16(message[0]) | UInt16(message[1]) << 8, index: UInt16(message[2]) | UInt16(message[3]) << 8,
                      payload: Array(message[6...]), timestamp: timestamp)
        }
    }

    /// The frames, in the order the kernel queued them; finishes when the socket ends.
    public let frames: AsyncStream<Frame>
    private let channel: MessageSocket
    private let malformed = Counter()

    /// A count shared with the reading task.
    private final class Counter: Sendable {
        private let value = Mutex(0)
        var count: Int { value.withLock { $0 } }
        func add() { value.withLock { $0 += 1 } }
    }

    /// The largest message: the header and a 16-bit Data Length's worth of data.
    static let messageCapacity = 6 + 0xFFFF

    /// Opens the monitor channel.
    ///
    /// - Throws: ``LinuxBluetoothError``: EPERM without CAP_NET_RAW (the error says how to grant
    ///   it), EAFNOSUPPORT on a kernel without Bluetooth.
    public convenience init() throws(LinuxBluetoothError) {
        let operation = LinuxBluetoothError.Operation.bindHCI(index: nil, channel: UInt16(HCI_CHANNEL_MONITOR))
        let socket = try BluetoothSocket(hci: operation)
        _ = try LinuxBluetoothError.check(cbl_hci_bind(socket.descriptor, UInt16(HCI_DEV_NONE), UInt16(HCI_CHANNEL_MONITOR)), operation)
        self.init(socket: socket)
    }

    /// A monitor on `socket`, already bound (tests give one end of a SOCK_SEQPACKET pair).
    init(socket: BluetoothSocket) {
        channel = MessageSocket(socket, receiveCapacity: Self.messageCapacity, label: "LinuxBluetooth.HCIMonitorSocket")
        let (frames, input) = AsyncStream.makeStream(of: Frame.self)
        self.frames = frames
        let messages = channel.messages
        let malformed = self.malformed
        Task {
            for await message in messages {
                if let frame = Frame(message: message, timestamp: Self.now()) {
                    input.yield(frame)
                } else {
                    malformed.add()
                }
            }
            input.finish()
        }
    }

    /// Frames not delivered because their header was cut short or their length disagreed.
    public var malformedFrames: Int { malformed.count }

    /// Why the socket ended, once it has (nil for a close at this end).
    public var endError: LinuxBluetoothError? { channel.endError }

    /// Closes the socket; ``frames`` finishes.
    public func close() { channel.close() }

    /// The real-time clock in microseconds since the Unix epoch.
    private static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000 + Int64(time.tv_nsec) / 1000
    }
}
