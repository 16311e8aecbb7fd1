import BLECore

/// What a ``CentralManager`` restored from its predecessor's state file, delivered first on
/// ``CentralManager/events`` as ``CentralEvent/willRestoreState(_:)`` (docs/state-restoration.md).
///
/// ```swift
/// let central = CentralManager(transport: .userChannel(hci: 0), options: .init(restoreIdentifier: "gateway"))
/// for await event in central.events {
///     switch event {
///     case .willRestoreState(let restored):
///         if let scan = restored.scan { Task { for try await found in scan.discoveries { ... } } }
///     case .connected(let peripheral):      // a restored one: its services are back, subscriptions on
///         let rate = peripheral.services?.first { $0.uuid == BluetoothUUID("180D")! }
///         ...
///     default: break
///     }
/// }
/// ```
public struct RestoredState: Sendable {
    /// Every peripheral the predecessor knew (connected to, or asked to connect), in the order
    /// it last used them. Those that were connected or connecting are
    /// ``PeripheralState/connecting`` now: the manager reconnects each as it shows up, without
    /// a scan, then sends ``CentralEvent/connected(_:)`` with its database (reused when the
    /// Database Hash is unchanged, else rediscovered) and its subscriptions back. The others
    /// are ``PeripheralState/disconnected``. ``CentralManager/cancelPeripheralConnection(_:)``
    /// stops a reconnection.
    public let peripherals: [Peripheral]
    /// The scan that was running, resumed; nil when none was.
    public let scan: RestoredScan?

    init(peripherals: [Peripheral], scan: RestoredScan?) {
        self.peripherals = peripherals
        self.scan = scan
    }
}

/// A scan that was running when a ``CentralManager``'s predecessor ended, started again with
/// the same arguments as soon as the manager is ``ManagerState/poweredOn``.
public struct RestoredScan: Sendable {
    /// The service filter it was started with; nil for every peripheral.
    public let serviceUUIDs: [BluetoothUUID]?
    /// The options it was started with.
    public let options: ScanOptions
    /// Its discoveries, exactly as from ``CentralManager/scanForPeripherals(withServices:options:)``:
    /// ending the iteration (or dropping the stream unread) stops the scan, as do
    /// ``CentralManager/stopScan()`` and a newer scan.
    public let discoveries: AsyncThrowingStream<Discovery, any Error>
}
