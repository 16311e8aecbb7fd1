/// How ``Peripheral/writeValue(_:for:type:)`` writes a characteristic value.
public enum WriteType: Hashable, Sendable {
    /// ATT_WRITE_REQ, answered by ATT_WRITE_RSP (Core v5.4, Vol 3, Part G, 4.9.3), or the
    /// prepared writes of Write Long Characteristic Values (4.9.4) for a value longer than
    /// ATT_MTU - 3 octets.
    case withResponse
    /// ATT_WRITE_CMD (Part G, 4.9.1): no answer; the call returns once the controller has taken
    /// the packet.
    case withoutResponse
}
