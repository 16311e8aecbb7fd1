import BLECore
import Foundation
import HCI
import Synchronization

/// A remote device a ``CentralManager`` found, retrieved or connected, as Core Bluetooth's
/// `CBPeripheral`, with async calls instead of a delegate (Core v5.4, Vol 3, Part G, 4).
///
/// ```swift
/// try await central.connect(peripheral)
/// let heartRate = try await peripheral.discoverServices([BluetoothUUID("180D")!])[0]
/// let measurement = try await peripheral.discoverCharacteristics([BluetoothUUID("2A37")!], for: heartRate)[0]
/// let values = peripheral.notifications(for: measurement)
/// try await peripheral.setNotifyValue(true, for: measurement)
/// for try await value in values { print(value as NSData) }      // ends with .disconnected(reason)
/// ```
///
/// **Identity.** One object per device per manager; ``identifier`` is derived from the identity
/// address and its type (``identifier(for:type:)``), so it is the same on every run.
///
/// **Connections.** GATT calls need ``state`` ``PeripheralState/connected``, else they throw
/// ``BLEError/notConnected``. Each connection has its own GATT client, and its own tree:
/// ``services`` (and every ``Service``, ``Characteristic`` and ``Descriptor`` in it) belongs to
/// the connection it was discovered on; after a reconnection, discover again.
///
/// **When the link drops,** every call pending on it ends exactly once with
/// ``BLEError/disconnected(_:)`` and its Reason, every ``notifications(for:)`` stream throws
/// that error, ``readyToSendWriteWithoutResponse`` finishes, and no characteristic is
/// notifying any more: subscribe again after reconnecting.
///
/// **Sequencing.** ATT carries one request at a time (Vol 3, Part F, 3.3.2): calls made together
/// are served in call order. Cancelling a calling task does not withdraw a request already sent
/// (ATT has no cancel); the call ends with its answer or with the link.
public final class Peripheral: Sendable, Hashable, CustomStringConvertible {
    /// Stable across runs: derived from ``address`` and ``addressType`` (``identifier(for:type:)``).
    public let identifier: UUID
    /// The identity address the manager connects to.
    public let address: BluetoothAddress
    /// Whether ``address`` is public or random.
    public let addressType: AddressType

    /// The manager this peripheral belongs to.
    let owner: ObjectIdentifier
    /// The manager's restoration, which records the tree and subscriptions as they change; nil
    /// without a restore identifier.
    let restoration: CentralRestoration?

    struct Record {
        var name: String?
        var state: PeripheralState = .disconnected
        var services: [Service]?
        var link: PeripheralLink?
        var mtu = 23
        var disconnectionReason: HCIStatus?
    }

    let record = Mutex(Record())

    init(address: BluetoothAddress, type: AddressType, owner: ObjectIdentifier, restoration: CentralRestoration? = nil) {
        identifier = Self.identifier(for: address, type: type)
        self.address = address
        addressType = type
        self.owner = owner
        self.restoration = restoration
    }

    /// The local name it advertised last (Complete, else Shortened Local Name; Core
    /// Specification Supplement, Part A, 1.2); nil when none was heard.
    public var name: String? { record.withLock { $0.name } }
    /// Where its link is.
    public var state: PeripheralState { record.withLock { $0.state } }
    /// The services discovered on the current connection by ``discoverServices(_:)``; nil
    /// before discovery and when not connected.
    public var services: [Service]? { record.withLock { $0.services } }
    /// The ATT_MTU of the current connection, in octets (Vol 3, Part F, 3.4.2): the smaller of
    /// the two sides' Rx MTUs after the exchange that connecting runs; 23 when not connected.
    public var mtu: Int { record.withLock { $0.mtu } }

    /// Whether a write without response would be taken at once: false while
    /// ``WriteWithoutResponseWindow/places`` (8) of them wait for the controller (ACL credits),
    /// and when not connected. A write made anyway waits its turn; none is dropped.
    public var canSendWriteWithoutResponse: Bool { record.withLock { $0.link }?.window.hasRoom ?? false }

    /// Yields each time ``canSendWriteWithoutResponse`` becomes true again after being false,
    /// on the current connection; finishes when the link drops (at once when not connected).
    public var readyToSendWriteWithoutResponse: AsyncStream<Void> {
        record.withLock { $0.link }?.window.readinessUpdates() ?? StreamFanOut.finished()
    }

    /// The longest value one write of `type` carries, in octets: ATT_MTU - 3 without response
    /// (one ATT_WRITE_CMD, Vol 3, Part F, 3.4.5.3); 512 with response (the longest attribute
    /// value, 3.2.9, written long with prepared writes when it does not fit one request).
    public func maximumWriteValueLength(for type: WriteType) -> Int {
        switch type {
        case .withResponse: return 512
        case .withoutResponse: return mtu - 3
        }
    }

    /// How many calls are pending on the current connection (tests wait on it).
    var pendingCallCount: Int { record.withLock { $0.link }?.calls.count ?? 0 }

    /// The current connection.
    ///
    /// - Throws: ``BLEError/notConnected`` unless connected (or disconnecting).
    func connectedLink() throws(BLEError) -> PeripheralLink {
        let link: PeripheralLink? = record.withLock { record in
            record.state == .connected || record.state == .disconnecting ? record.link : nil
        }
        guard let link else { throw .notConnected }
        return link
    }

    /// The current connection, for an operation on `characteristic`.
    ///
    /// - Throws: ``BLEError/notConnected``; ``BLEError/characteristicNotFound(_:)`` when
    ///   `characteristic` is from another connection, or a Service Changed took its service
    ///   out of the tree (Core v5.4, Vol 3, Part G, 7.1): its handles may name other
    ///   attributes now.
    func connectedLink(for characteristic: Characteristic) throws(BLEError) -> PeripheralLink {
        let link = try connectedLink()
        guard characteristic.generation == link.generation, !characteristic.isInvalidated else {
            throw .characteristicNotFound(characteristic.uuid)
        }
        return link
    }

    /// The current connection, for an operation on `descriptor`.
    ///
    /// - Throws: as ``connectedLink(for:)-characteristic``, naming the descriptor's UUID.
    func connectedLink(for descriptor: Descriptor) throws(BLEError) -> PeripheralLink {
        let link = try connectedLink()
        guard descriptor.generation == link.generation, !descriptor.isInvalidated else {
            throw .characteristicNotFound(descriptor.uuid)
        }
        return link
    }

    /// Records an advertised name.
    func heard(name: String?) {
        guard let name else { return }
        record.withLock { $0.name = name }
    }

    /// Identity: the same object (one per device per manager).
    public static func == (lhs: Peripheral, rhs: Peripheral) -> Bool { lhs === rhs }
    /// Hashes the identity.
    public func hash(into hasher: inout Hasher) { hasher.combine(ObjectIdentifier(self)) }

    /// "Peripheral EA:59:24:0E:82:34 (random) "LinuxBLE HR", connected".
    public var description: String {
        let (name, state) = record.withLock { ($0.name, $0.state) }
        return "Peripheral \(address) (\(addressType))\(name.map { " \"\($0)\"" } ?? ""), \(state)"
    }
}
