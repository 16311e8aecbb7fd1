/// One write of a reliable write (Core v5.4, Vol 3, Part G, 4.9.5): a value for one
/// characteristic value (or descriptor), written from `offset`.
public struct GATTReliableWrite: Sendable, Hashable {
    /// The handle to write.
    public var handle: UInt16
    /// The octets to write; split into Prepare Write Requests of at most ATT_MTU - 5 octets.
    public var value: [UInt8]
    /// The offset of the first octet within the attribute value, in octets.
    public var offset: UInt16

    /// A write of `value` to `handle` from `offset`.
    public init(handle: UInt16, value: [UInt8], offset: UInt16 = 0) {
        self.handle = handle
        self.value = value
        self.offset = offset
    }
}
