import HCI
import Host

/// Beside Core Bluetooth, for tools that show what a connection is and what it cost (`blectl
/// demo`): the link's handle and parameters, the ATT PDUs it carried, whether the database came
/// from the cache, and the Reason the last link ended with.
extension Peripheral {
    /// The current connection's HCI Connection_Handle (Core v5.4, Vol 4, Part E, 5.4.2); nil when
    /// not connected, and in kernel mode when the kernel would not say (L2CAP_CONNINFO).
    public var connectionHandle: UInt16? { record.withLock { $0.link }?.backend.connectionHandle }

    /// The current connection's interval (1.25 ms units), peripheral latency, supervision
    /// timeout (10 ms units), data lengths (octets) and PHYs, as the controller last reported
    /// them (LE Connection Complete, Connection Update Complete, Data Length Change, PHY Update
    /// Complete: Vol 4, Part E, 7.7.65.1, 7.7.65.3, 7.7.65.7, 7.7.65.12). Host mode only: nil in
    /// kernel mode, where the kernel keeps them, and when not connected.
    public var connectionParameters: LEConnectionState? { record.withLock { $0.link }?.backend.connectionParameters }

    /// The ATT PDUs the current connection has sent so far, by opcode, the MTU exchange that
    /// connecting runs included (Vol 3, Part F, 3.4.8); empty when not connected. Each connection
    /// counts from zero.
    public var attPDUCounts: ATTPDUCounts { record.withLock { $0.link }?.bearer.sent ?? ATTPDUCounts() }

    /// Whether the last ``discoverDatabase()`` on the current connection took the tree from the
    /// manager's cache: the Database Hash it read equals the one the tree was discovered under
    /// on an earlier connection (robust caching, Vol 3, Part G, 2.5.2, 7.3), so it cost one ATT
    /// round trip. False when it discovered the database, and when not connected.
    public var databaseFromCache: Bool {
        get async {
            guard let link = record.withLock({ $0.link }) else { return false }
            return await link.client.usedCachedDatabase
        }
    }

    /// The Reason the last connection ended with (its Disconnection Complete, Vol 4, Part E,
    /// 7.7.5): 0x16 Connection Terminated By Local Host after
    /// ``CentralManager/cancelPeripheralConnection(_:)``, 0x13 Remote User Terminated Connection
    /// when the peer ended it, 0x08 Connection Timeout, ...; nil while connected, and before a
    /// connection has ended.
    public var disconnectionReason: HCIStatus? { record.withLock { $0.disconnectionReason } }
}
