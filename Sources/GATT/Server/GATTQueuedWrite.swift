import ATT

/// One part of a queued write that reaches a value the application holds (a dynamic value): a
/// Prepare Write Request's handle, offset and part, as ATT_EXECUTE_WRITE_REQ writes it (Core
/// v5.4, Vol 3, Part F, 3.4.6.1 and 3.4.6.3; Part G, 4.9.4 Write Long Characteristic Values and
/// 4.9.5 Reliable Writes).
public struct GATTQueuedWrite: Sendable, Hashable {
    /// The attribute's handle.
    public let handle: UInt16
    /// Where in the value the part goes, in octets.
    public let offset: Int
    /// The part's octets.
    public let value: [UInt8]

    /// A part for `handle` at `offset`.
    public init(handle: UInt16, offset: Int, value: [UInt8]) {
        self.handle = handle
        self.offset = offset
        self.value = value
    }
}

/// Why a ``GATTServer/QueuedWriteHandler`` refused an execution: the ATT error code (Part F,
/// 3.4.1.1) and the handle the ATT_ERROR_RSP names.
public struct GATTQueuedWriteRefusal: Error, Sendable, Hashable {
    /// The handle named in the error response.
    public let handle: UInt16
    /// The error code: Write Not Permitted (0x03), Invalid Offset (0x07), Invalid Attribute
    /// Value Length (0x0D), an application error (0x80...0x9F), ...
    public let code: ATTErrorCode

    /// A refusal naming `handle` with `code`.
    public init(handle: UInt16, code: ATTErrorCode) {
        self.handle = handle
        self.code = code
    }
}
