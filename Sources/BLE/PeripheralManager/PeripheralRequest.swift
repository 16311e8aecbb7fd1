/// A request a ``PeripheralManager`` asks the application to answer, from
/// ``PeripheralManager/requests``.
public enum PeripheralRequest: Sendable {
    /// A read (ATT_READ_REQ or ATT_READ_BLOB_REQ, Core v5.4, Vol 3, Part F, 3.4.4): set the
    /// request's value, then respond.
    case read(ATTRequest)
    /// Writes answered together by one response: one Write Request (Part F, 3.4.5.1), or every
    /// part of a queued write that reaches a characteristic with a nil value, in queue order,
    /// when the central executes it (ATT_EXECUTE_WRITE_REQ, 3.4.6.3: a Write Long, or a Reliable
    /// Write across characteristics). A Write Command (3.4.5.3) comes the same way with
    /// ``ATTRequest/writeType`` `.withoutResponse`, and needs no response.
    case write([ATTRequest])
}
