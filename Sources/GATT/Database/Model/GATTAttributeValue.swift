import ATT

/// The value of an attribute: fixed octets, or async handlers the server calls on each access.
///
/// A ``fixed(_:)`` value is the value the attribute holds when the database is built; the
/// database never changes it. A server that permits writes to such an attribute keeps the
/// written value itself (one value per database, shared by every connection), except for the
/// values the server owns per connection (CCCDs, Client Supported Features).
public enum GATTAttributeValue: Sendable {
    /// The octets, at most 512 of them (Core v5.4, Vol 3, Part F, 3.2.9).
    case fixed([UInt8])
    /// Computed on each read and applied on each write by the application.
    case dynamic(GATTValueHandlers)

    /// A fixed value holding the UTF-8 octets of `text` (no terminating zero).
    public static func text(_ text: String) -> GATTAttributeValue { .fixed(Array(text.utf8)) }

    /// The octets of a fixed value; nil for a dynamic one.
    public var fixedValue: [UInt8]? {
        if case .fixed(let octets) = self { return octets }
        return nil
    }

    /// The handlers of a dynamic value; nil for a fixed one.
    public var handlers: GATTValueHandlers? {
        if case .dynamic(let handlers) = self { return handlers }
        return nil
    }
}

/// The application's side of a dynamic attribute value: an async read and an async write, each
/// given the value offset and the peer (Core v5.4, Vol 3, Part F, 3.4.4.5 Read Blob and 3.4.6.1
/// Prepare Write carry an offset; a plain read or write has offset 0).
///
/// A handler throws the ATT error code the server should answer with (for example
/// ``ATTErrorCode/invalidOffset`` for an offset past the end, or an Application Error
/// 0x80...0x9F). The server checks permissions before it calls a handler, so a handler sees only
/// permitted accesses. The builder requires a read handler when the attribute's permissions
/// permit reading, and a write handler when they permit writing.
public struct GATTValueHandlers: Sendable {
    /// Reads the value from `offset` (in octets) on: returns the octets at `offset` and after,
    /// or throws the error to send. The server cuts the result to fit the ATT_MTU.
    public typealias Read = @Sendable (_ offset: Int, _ peer: GATTPeer) async throws(ATTErrorCode) -> [UInt8]
    /// Writes `value` at `offset` (in octets): offset 0 and a complete value for a Write
    /// Request or Command; for a queued write, each part at its offset, in the order the client
    /// queued them, when the client executes the queue.
    public typealias Write = @Sendable (_ value: [UInt8], _ offset: Int, _ peer: GATTPeer) async throws(ATTErrorCode) -> Void

    /// A name for the handlers, used when a database is written as JSON (the `handler` member of
    /// docs/gatt-database-json.md) and in diagnostics; nil when anonymous.
    public var name: String?
    /// The read handler, or nil when the value cannot be read.
    public var read: Read?
    /// The write handler, or nil when the value cannot be written.
    public var write: Write?
    /// The handler for the writes that get no response, ATT_WRITE_CMD and ATT_SIGNED_WRITE_CMD
    /// (Core v5.4, Vol 3, Part F, 3.4.5.3 and 3.4.5.4), always at offset 0; nil to use
    /// ``write`` for them too. The server answers nothing either way, and an error thrown is
    /// dropped; a handler that only takes the value and returns keeps the server from waiting
    /// on the application for a write no one will be told about.
    public var writeWithoutResponse: Write?

    /// Handlers with an optional name.
    public init(name: String? = nil, read: Read? = nil, write: Write? = nil, writeWithoutResponse: Write? = nil) {
        self.name = name
        self.read = read
        self.write = write
        self.writeWithoutResponse = writeWithoutResponse
    }
}
