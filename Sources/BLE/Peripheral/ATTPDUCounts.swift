import ATT

/// The ATT PDUs one connection of a ``Peripheral`` has sent so far, by opcode (Core v5.4, Vol 3,
/// Part F, 3.4.8), from ``Peripheral/attPDUCounts``: what a tool shows to say what a procedure
/// cost. ATT allows one outstanding request per bearer (3.3.2), so each request is one round trip.
public struct ATTPDUCounts: Sendable, Hashable {
    /// PDUs sent, by opcode: requests, commands, confirmations.
    public internal(set) var sent: [ATTOpcode: Int] = [:]

    /// No PDU sent yet.
    public init() {}

    /// The requests sent: one round trip each.
    public var requests: Int { sent.reduce(0) { $0 + ($1.key.kind == .request ? $1.value : 0) } }

    /// The PDUs sent with `opcode`.
    public func sent(_ opcode: ATTOpcode) -> Int { sent[opcode] ?? 0 }
}
