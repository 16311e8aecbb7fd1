/// A request a ``PeripheralManager`` asks the application to answer, from
/// ``PeripheralManager/requests``.
public enum PeripheralRequest: Sendable {
    /// A read (ATT_READ_REQ or ATT_READ_BLOB_REQ, Core v5.4, Vol 3, Part F, 3.4.4): set the
    /// request's value, then respond.
    case read(ATTRequest)
    /// Writes answered together by one response: one Write Request (Part F, 3.4.5.1), or one
    /// part of a queued write as the central executes it (3.4.6.3). A Write Command (3.4.5.3)
    /// comes the same way with ``ATTRequest/writeType`` `.withoutResponse`, and needs no response.
    case write([ATTRequest])
}
