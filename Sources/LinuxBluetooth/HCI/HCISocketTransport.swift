#if canImport(Glibc)
import Glibc
#endif
import CBluetoothLinux
import HCI
import Host

/// The kernel's raw HCI channel on one adapter as an ``HCITransport``: commands out, events in,
/// beside the kernel, which keeps owning the controller (kernel mode; needs CAP_NET_RAW to send
/// commands). Each socket message is one packet with its H4 packet type first.
///
/// The HCI filter passes every event (Vol 4, Part E, 7.7) and no data: in kernel mode ACL data is
/// the kernel's. The kernel's own commands' Command Complete and Command Status events arrive here
/// too; ``HCICommandFlow`` passes those it did not ask for to its other readers.
public final class HCISocketTransport: HCITransport, Sendable {
    /// The adapter index N of hciN.
    public let adapterIndex: UInt16
    /// The packets from the controller, in order; packets that do not decode are skipped.
    public let packets: AsyncStream<HCIPacket>

    private let channel: MessageSocket

    /// Opens the raw channel of hci`index`.
    ///
    /// - Throws: ``LinuxBluetoothError``: ENODEV for no such adapter, EPERM without CAP_NET_RAW,
    ///   EAFNOSUPPORT without kernel Bluetooth.
    public convenience init(adapter index: UInt16) throws(LinuxBluetoothError) {
        let operation = LinuxBluetoothError.Operation.bindHCI(index: index, channel: UInt16(HCI_CHANNEL_RAW))
        let socket = try BluetoothSocket(hci: operation)
        _ = try LinuxBluetoothError.check(cbl_hci_bind(socket.descriptor, index, UInt16(HCI_CHANNEL_RAW)), operation)
        // Packet types are bits by H4 type (event 0x04); every event code passes.
        _ = try LinuxBluetoothError.check(cbl_hci_set_filter(socket.descriptor, 1 << UInt32(HCIPacketType.event.rawValue),
                                                             0xFFFF_FFFF, 0xFFFF_FFFF, 0), operation)
        self.init(socket: socket, adapter: index)
    }

    /// A transport on `socket`, already bound and filtered (tests give one end of a socket pair).
    init(socket: BluetoothSocket, adapter index: UInt16) {
        adapterIndex = index
        // The longest packet: an ACL header (1 + 4) and 1021 octets of data covers an event (1 + 2 + 255).
        channel = MessageSocket(socket, receiveCapacity: 1 + 4 + 1021, label: "LinuxBluetooth.HCISocketTransport")
        let (packets, input) = AsyncStream.makeStream(of: HCIPacket.self)
        self.packets = packets
        let messages = channel.messages
        Task {
            for await message in messages {
                if let packet = try? HCIPacket(h4: message) { input.yield(packet) }
            }
            input.finish()
        }
    }

    /// Sends one packet (a command, in kernel mode) with its H4 type first.
    ///
    /// - Throws: ``HCITransportError/closed`` once closed; ``HCITransportError/failed(_:)`` with
    ///   the kernel's reason (EPERM: CAP_NET_RAW is missing).
    public func send(_ packet: HCIPacket) async throws(HCITransportError) {
        guard !channel.isClosed else { throw .closed }
        do { try await channel.send(packet.h4Encoded, what: "sending an HCI packet to hci\(adapterIndex)") } catch {
            // Closed meanwhile (by close(), or the adapter went away): that is the end, not a failure.
            if channel.isClosed || error.code == EPIPE || error.code == EBADF { throw .closed }
            throw .failed(error.description)
        }
    }

    /// Closes the socket; ``packets`` finishes.
    public func close() async { channel.close() }
}
