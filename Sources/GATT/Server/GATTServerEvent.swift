import ATT

/// Something a client did that the application may want to know, from ``GATTServer/events``.
public enum GATTServerEvent: Sendable, Hashable {
    /// A connection was attached.
    case connected(GATTPeer)
    /// A connection was detached, or found closed; its state is gone.
    case disconnected(GATTPeer)
    /// The client wrote a CCCD (Core v5.4, Vol 3, Part G, 3.3.3.3): its configuration of the
    /// characteristic whose value is at `valueHandle` is now `configuration`.
    case configurationChanged(GATTPeer, valueHandle: UInt16, configuration: GATTClientCharacteristicConfiguration)
    /// The client wrote a value the server holds (a fixed value, not a dynamic one, whose handler
    /// is told directly): the attribute at `handle` is now `value`.
    case valueWritten(GATTPeer, handle: UInt16, value: [UInt8])
    /// The client wrote Client Supported Features (Part G, 7.2).
    case clientFeaturesChanged(GATTPeer, features: [UInt8])
}

/// What became of a notification or indication sent to every subscribed client.
public struct GATTDeliveryReport: Sendable, Hashable, CustomStringConvertible {
    /// The clients that were sent the notification, or that confirmed the indication.
    public var delivered: [GATTPeer]
    /// The clients whose indication failed (timed out, or the bearer closed), and why.
    public var failed: [GATTPeer: ATTError]
    /// The subscribed clients the server did not send to: change-unaware clients that use Robust
    /// Caching (Core v5.4, Vol 3, Part G, 2.5.2.1), or links whose security no longer meets the
    /// characteristic's requirements (Part C, 10.3.1.1).
    public var withheld: [GATTPeer]

    /// A report with the given contents; empty by default.
    public init(delivered: [GATTPeer] = [], failed: [GATTPeer: ATTError] = [:], withheld: [GATTPeer] = []) {
        self.delivered = delivered
        self.failed = failed
        self.withheld = withheld
    }

    /// "2 delivered, 0 failed, 1 withheld".
    public var description: String { "\(delivered.count) delivered, \(failed.count) failed, \(withheld.count) withheld" }
}

/// An attribute handle and a value, for ``GATTServer/notify(_:)``.
public struct GATTHandleValue: Sendable, Hashable {
    /// The characteristic value handle.
    public var handle: UInt16
    /// The value.
    public var value: [UInt8]

    /// The pair `handle`, `value`.
    public init(handle: UInt16, value: [UInt8]) {
        self.handle = handle
        self.value = value
    }
}
