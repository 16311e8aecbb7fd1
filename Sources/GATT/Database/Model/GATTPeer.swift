/// The peer on whose behalf the server calls a dynamic attribute's handlers: the connection it
/// arrived on.
///
/// It is an identity, nothing more: the server gives each connection (one ATT bearer) its own
/// `connectionID`, so an application can keep per-peer state in its handlers without the
/// database knowing about links. Two connections to the same device are two peers.
public struct GATTPeer: Sendable, Hashable, CustomStringConvertible {
    /// The server's identifier for the connection, unique among its live connections.
    public var connectionID: UInt64

    /// The peer on connection `connectionID`.
    public init(connectionID: UInt64) { self.connectionID = connectionID }

    /// "connection 3".
    public var description: String { "connection \(connectionID)" }
}
