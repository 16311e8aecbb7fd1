import BLECore
import HCI

/// What a peripheral manager needs from a mode (kernel mode or host mode): advertising, the
/// links centrals make, and the mode's end. One implementation per mode.
protocol PeripheralBackend: AnyObject, Sendable {
    /// The clock of the request deadline and ATT transaction timeouts.
    var clock: any Clock<Duration> { get }

    /// The links centrals make, as they form; finishes when the mode ends.
    var incoming: AsyncStream<any BackendLink> { get }

    /// The controller's own identity address and its type: host mode's (public, or the static
    /// random one bring-up set), kernel mode's adapter's BD_ADDR (public).
    var localAddress: (address: BluetoothAddress, type: Peripheral.AddressType) { get }

    /// What the mode tells of itself: kernel mode's pairing answers
    /// (``PeripheralManagerEvent/pairingAnswered(_:_:)``) and a pairing agent that could not
    /// start; finishes when the mode ends.
    var notices: AsyncStream<PeripheralManagerEvent> { get }

    /// The errors of advertising again after a connection (Core v5.4, Vol 6, Part B, 4.4.2)
    /// since the last call, oldest first.
    func newReadvertisingErrors() async -> [BLEError]

    /// Advertises `structures` (connectable or not), with `scanResponse` as the scan response
    /// data (none when empty), replacing what was advertised, and advertises again after each
    /// connection, so more centrals can connect (Core v5.4, Vol 6, Part B, 4.4.2; Vol 4,
    /// Part E, 7.8.5-7.8.9 or 7.8.53-7.8.56).
    ///
    /// - Throws: ``BLEError/advertisingDataTooLong(needed:available:)``;
    ///   ``BLEError/invalidArgument(_:)`` for a structure that cannot be encoded;
    ///   ``BLEError/controllerError(_:)``.
    func startAdvertising(_ structures: [ADStructure], scanResponse: [ADStructure], connectable: Bool) async throws(BLEError)

    /// Stops advertising; does nothing when not advertising.
    func stopAdvertising() async

    /// The static random address the controller advertises and connects with (Core v5.4,
    /// Vol 6, Part B, 1.3.2.1), when the mode chose one (host mode, on a controller without a
    /// public address); nil otherwise.
    var staticRandomAddress: BluetoothAddress? { get }
    /// Returns once the mode has ended, with the state that follows.
    func ended() async -> BackendEnd

    /// Ends the links and advertising and closes the transport.
    func close() async
}
