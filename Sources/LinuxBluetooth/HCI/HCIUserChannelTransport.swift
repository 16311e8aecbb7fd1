#if canImport(Glibc)
import Glibc
#endif
import BLECore
import CBluetoothLinux
import HCI
import Host
import Synchronization

/// The kernel's HCI user channel on one adapter as an ``HCITransport``: host mode, where this
/// process alone owns the controller (Linux `HCI_CHANNEL_USER`; the packets are Core v5.4,
/// Vol 4, Part E, 5.4). Each socket message is one packet with its H4 packet type first, as on
/// the raw channel, but nothing is filtered: every event and every ACL packet comes here, and
/// the kernel neither sends commands of its own nor handles connections meanwhile.
///
/// The kernel binds the user channel only to an adapter that is down: opening takes it down
/// first (HCIDEVDOWN), then binds. While the channel is open the adapter is gone from kernel
/// mode (bluetoothd and `blectl list` see it unavailable); closing the channel gives it back,
/// down.
///
/// ```swift
/// let transport = try HCIUserChannelTransport(adapter: 0)
/// let flow = HCICommandFlow(transport: transport)
/// _ = try await flow.send(HCIReset())
/// ```
public final class HCIUserChannelTransport: HCITransport, Sendable {
    /// The adapter index N of hciN.
    public let adapterIndex: UInt16
    /// The packets from the controller, in order. A message that does not decode as a packet is
    /// not delivered; it is counted in ``malformedMessageCount`` and its error kept in
    /// ``lastMalformedMessageError``.
    public let packets: AsyncStream<HCIPacket>

    /// The steps of opening, injectable so that tests can play the kernel's answers.
    struct Opening: Sendable {
        /// Takes adapter `index` down (HCIDEVDOWN).
        var powerDown: @Sendable (_ index: UInt16) throws(LinuxBluetoothError) -> Void
        /// Opens an HCI socket; the operation names what it is for in the error.
        var openSocket: @Sendable (LinuxBluetoothError.Operation) throws(LinuxBluetoothError) -> BluetoothSocket
        /// bind(2)s the socket to adapter `index` on the user channel: 0, or -errno.
        var bind: @Sendable (_ descriptor: Int32, _ index: UInt16) -> Int32

        /// The kernel's: HCIAdapters.down, an AF_BLUETOOTH socket, bind to HCI_CHANNEL_USER.
        static let kernel = Opening(
            powerDown: { (index: UInt16) throws(LinuxBluetoothError) in try HCIAdapters.down(index) },
            openSocket: { (operation: LinuxBluetoothError.Operation) throws(LinuxBluetoothError) in
                try BluetoothSocket(hci: operation)
            },
            bind: { descriptor, index in cbl_hci_bind(descriptor, index, UInt16(HCI_CHANNEL_USER)) })
    }

    /// The user channel's number, HCI_CHANNEL_USER (1).
    static let userChannel = UInt16(HCI_CHANNEL_USER)

    private let channel: MessageSocket
    private let malformed = MalformedMessages()

    /// The count of messages that did not decode, and the newest one's error.
    private final class MalformedMessages: Sendable {
        let state = Mutex<(count: Int, last: BLEDecodingError?)>((0, nil))
    }

    /// Takes adapter hci`index` down and binds its user channel.
    ///
    /// - Throws: ``LinuxBluetoothError``, each with what to do:
    ///   - EBUSY (binding): the adapter is held, by bluetoothd or by the kernel while it is up;
    ///     stop bluetoothd (`sudo systemctl stop bluetooth`) and `blectl --hci N power off`.
    ///     EBUSY while taking it down: another process has its user channel.
    ///   - EPERM: taking an adapter down and the user channel need CAP_NET_ADMIN.
    ///   - ERFKILL: rfkill blocks the adapter (`rfkill unblock bluetooth`).
    ///   - ENODEV: no such adapter (`blectl list`).
    ///   - EAFNOSUPPORT: the kernel has no Bluetooth.
    public convenience init(adapter index: UInt16) throws(LinuxBluetoothError) {
        try self.init(adapter: index, opening: .kernel)
    }

    /// Opens the user channel of hci`index` through `opening`'s steps: down, socket, bind.
    convenience init(adapter index: UInt16, opening: Opening) throws(LinuxBluetoothError) {
        try opening.powerDown(index)
        let operation = LinuxBluetoothError.Operation.bindHCI(index: index, channel: Self.userChannel)
        let socket = try opening.openSocket(operation)
        let result = opening.bind(socket.descriptor, index)
        guard result >= 0 else {
            socket.close()
            throw LinuxBluetoothError(operation, code: -result)
        }
        self.init(socket: socket, adapter: index)
    }

    /// A transport on `socket`, already bound (tests give one end of a socket pair).
    init(socket: BluetoothSocket, adapter index: UInt16) {
        adapterIndex = index
        // The longest packet an H4 type and an ACL header can announce: 1 + 4 + 65535 octets.
        channel = MessageSocket(socket, receiveCapacity: 1 + 4 + 0xFFFF, label: "LinuxBluetooth.HCIUserChannelTransport")
        let (packets, input) = AsyncStream.makeStream(of: HCIPacket.self)
        self.packets = packets
        let messages = channel.messages
        let malformed = self.malformed
        Task {
            for await message in messages {
                do throws(BLEDecodingError) {
                    input.yield(try HCIPacket(h4: message))
                } catch {
                    malformed.state.withLock { $0 = ($0.count &+ 1, error) }
                }
            }
            input.finish()
        }
    }

    /// How many messages from the kernel did not decode as a packet (and were not delivered).
    public var malformedMessageCount: Int { malformed.state.withLock { $0.count } }

    /// Why the newest message that did not decode failed; nil when every message decoded.
    public var lastMalformedMessageError: BLEDecodingError? { malformed.state.withLock { $0.last } }

    /// Why the channel ended, once it has: nil for an orderly end or a close at this end.
    public var endError: LinuxBluetoothError? { channel.endError }

    /// Sends one packet (a command, ACL data, ...) with its H4 type first.
    ///
    /// - Throws: ``HCITransportError/closed`` once closed (by ``close()``, or the adapter went
    ///   away); ``HCITransportError/failed(_:)`` with the kernel's reason (EINVAL for a packet
    ///   type the channel does not carry).
    public nonisolated(nonsending) func send(_ packet: HCIPacket) async throws(HCITransportError) {
        guard !channel.isClosed else { throw .closed }
        do { try await channel.send(packet.h4Encoded, what: "sending an HCI packet to hci\(adapterIndex)'s user channel") } catch {
            if channel.isClosed || error.code == EPIPE || error.code == EBADF || error.code == ENODEV { throw .closed }
            throw .failed(error.description)
        }
    }

    /// Closes the channel (the kernel gives the adapter back, down); ``packets`` finishes.
    /// Closing again does nothing.
    public func close() async { channel.close() }
}
