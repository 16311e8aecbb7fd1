import Foundation

/// How a manager (``CentralManager``, ``PeripheralManager``) is set up: state restoration,
/// where its state lives, the ATT MTU it offers, a peripheral manager's request deadline, GAP
/// Device Name, link security and pairing, and an HCI capture file.
///
/// ```swift
/// let central = CentralManager(transport: .userChannel(hci: 0), options: .init(attMTU: 247))
/// ```
public struct ManagerOptions: Sendable, Hashable {
    /// The identifier under which the manager keeps and restores its state across runs; nil for
    /// none. A central manager and a peripheral manager each have their own file for it
    /// (``CentralManager/restorationStateFile``, ``PeripheralManager/restorationStateFile``);
    /// two managers of one role must not share an identifier at once (each write replaces the
    /// file whole: the last writer's state wins). docs/state-restoration.md says what is kept.
    public var restoreIdentifier: String?
    /// Where restoration (and, later, bonding) state lives: `$XDG_STATE_HOME/linuxble`, else
    /// `~/.local/state/linuxble`, by default; made (mode 0700) at the first write.
    public var stateDirectory: URL
    /// The Rx MTU each link's ATT bearer offers in ATT_EXCHANGE_MTU_REQ, in octets (23...517;
    /// 517 by default; Core v5.4, Vol 3, Part F, 3.4.2).
    public var attMTU: UInt16
    /// How long a peripheral manager waits for the application to answer a request before the
    /// stack answers Unlikely Error (0x0E) itself: 10 s by default, well before the central's
    /// 30 s transaction timer would end the bearer (Vol 3, Part F, 3.3.3).
    public var requestDeadline: Duration
    /// A btsnoop file (H4 datalink, 1002) to write every HCI packet of the manager's controller
    /// to, as it passes, for `blectl decode` or Wireshark; nil (the default) for none. Host mode
    /// captures all of it: commands, events and ACL data (Core v5.4, Vol 4, Part E, 5.4). Kernel
    /// mode captures the adapter's raw HCI channel: what the manager sends there (scanning,
    /// advertising, RSSI, disconnecting) and the events the kernel copies to it, not the
    /// kernel's own ACL traffic (btmon sees that). The file is replaced when it exists; one that
    /// cannot be created leaves the manager ``ManagerState/unsupported`` with
    /// ``BLEError/invalidArgument(_:)`` naming the path and the reason.
    public var captureFile: URL?
    /// The GAP Device Name a peripheral manager's GATT server gives centrals in its Device Name
    /// characteristic (0x2A00; Core v5.4, Vol 3, Part C, 12.1): UTF-8, cut to 248 octets at a
    /// character boundary; ``defaultDeviceName`` ("LinuxBLE") by default. The advertised local
    /// name is separate (``AdvertisementData/localName``). A central manager does not use it.
    public var deviceName: String

    /// A peripheral manager's: the security every central's link must have before ATT flows on
    /// it (LE security mode 1, Core v5.4, Vol 3, Part C, 10.2.1); ``SecurityLevel/none`` by
    /// default. Kernel mode sets it as the ATT listener's BT_SECURITY, so the kernel pairs (or
    /// encrypts with a stored key) before it hands the link over. Host mode has no SMP yet: above
    /// ``SecurityLevel/none`` its peripheral manager stays ``ManagerState/unsupported``, saying
    /// so. A central manager does not use it (``ConnectOptions/security`` is per connection).
    public var requiredLinkSecurity: SecurityLevel
    /// A peripheral manager's, in kernel mode: whether it confirms the kernel's Just Works
    /// pairing requests (Vol 3, Part H, 2.3.5.1) from any central itself, on the management
    /// channel (CAP_NET_ADMIN), so that centrals can pair with bluetoothd stopped; false by
    /// default. Each answer, and an agent that cannot start, is on ``PeripheralManager/events``.
    /// Numeric comparison and passkeys are left to another agent. Host mode answers every
    /// pairing request with Pairing Not Supported (it has no SMP yet), whatever this says.
    public var acceptsJustWorksPairing: Bool

    /// The Device Name a peripheral manager serves unless told otherwise: "LinuxBLE".
    public static let defaultDeviceName = "LinuxBLE"

    /// Options; every parameter is described at its property.
    public init(restoreIdentifier: String? = nil, stateDirectory: URL = ManagerOptions.defaultStateDirectory, attMTU: UInt16 = 517,
                requestDeadline: Duration = .seconds(10), captureFile: URL? = nil, deviceName: String = ManagerOptions.defaultDeviceName,
                requiredLinkSecurity: SecurityLevel = .none, acceptsJustWorksPairing: Bool = false) {
        self.restoreIdentifier = restoreIdentifier
        self.stateDirectory = stateDirectory
        self.attMTU = min(max(attMTU, 23), 517)
        self.requestDeadline = requestDeadline
        self.captureFile = captureFile
        self.deviceName = deviceName
        self.requiredLinkSecurity = requiredLinkSecurity
        self.acceptsJustWorksPairing = acceptsJustWorksPairing
    }

    /// `$XDG_STATE_HOME/linuxble`, else `~/.local/state/linuxble`.
    public static var defaultStateDirectory: URL {
        if let state = ProcessInfo.processInfo.environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            return URL(fileURLWithPath: state).appendingPathComponent("linuxble")
        }
        return FileManager.default.homeDirectoryForCurrentUser.appendingPathComponent(".local/state/linuxble")
    }
}
