import HCI

/// What the Host layer sees of the link to a controller: HCI packets out, HCI packets in
/// (Core v5.4, Vol 4, Part A, "Host Controller Interface transport layer", and Part E, 5.4).
///
/// Implemented in LinuxBluetooth by the kernel's raw HCI socket (`AF_BLUETOOTH`, `BTPROTO_HCI`,
/// `HCI_CHANNEL_RAW`: kernel mode), the HCI user channel (`HCI_CHANNEL_USER`: host mode) and the
/// H4 stream (a tty or TCP), and by the virtual controller; ``ScriptedHCITransport`` plays a
/// scripted controller in tests.
///
/// A transport knows nothing of HCI's rules: it neither counts command credits
/// (Num_HCI_Command_Packets) nor matches events to commands. ``HCICommandFlow`` does, and is the
/// one reader of ``packets``.
///
/// ```swift
/// let flow = HCICommandFlow(transport: socket)
/// let features = try await flow.send(HCILEReadLocalSupportedFeatures())
/// ```
public protocol HCITransport: AnyObject, Sendable {
    /// Sends one packet, whole, with its H4 packet type (command, ACL, ...).
    ///
    /// - Throws: ``HCITransportError/closed`` once the transport is closed (by ``close()`` or
    ///   by the controller side); ``HCITransportError/failed(_:)`` when the link refused it.
    nonisolated(nonsending) func send(_ packet: HCIPacket) async throws(HCITransportError)

    /// The packets from the controller (events, ACL, ...), in the order received. The stream
    /// finishes when the transport closes, at either end. It has one reader.
    var packets: AsyncStream<HCIPacket> { get }

    /// Closes the transport: ``packets`` finishes and later sends throw
    /// ``HCITransportError/closed``. Closing twice does nothing more.
    func close() async
}
