import HCI

/// The ACL data of one link, in arrival order, as its reader takes it from the router's queue
/// (``HCICommandFlow/acl(handle:)``): packets, and ``HCIRouted/overflow(dropped:)`` where the
/// queue was full. With flow control from the controller to the host on, each packet taken
/// returns its buffer to the controller (in batches; Core v5.4, Vol 4, Part E, 4.2), and the
/// queue cannot overflow. One reader; dropping the route and its iterators ends it.
public struct HCIACLRoute: AsyncSequence, Sendable {
    /// A packet, or a report of packets dropped before it.
    public typealias Element = HCIRouted<HCIACLDataPacket>

    let reader: HCIRouteReader<Element>
    let link: UInt64
    let bufferReturn: HCIHostBufferReturn

    /// Takes the route's elements in order; nil once the link's queue has finished.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let reader: HCIRouteReader<Element>
        let link: UInt64
        let bufferReturn: HCIHostBufferReturn

        /// The next element, waiting for it; nil when the route has ended.
        public mutating func next() async -> Element? {
            await next(isolation: nil)
        }

        /// The next element, waiting for it on `actor` (a `for await` loop in an actor's method
        /// takes what the queue holds with no suspension, and waits on that actor); nil when the
        /// route has ended.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            let element = await reader.channel.next(isolation: actor)
            if case .packet? = element, let entries = bufferReturn.taken(link: link) { await bufferReturn.send(entries) }
            return element
        }
    }

    /// Hands the route's elements to `receive` on the thread that routes them (the one that
    /// read the transport), instead of through an iterator: first what the route holds, in
    /// order, then each packet as it comes, with no task between the router and the receiver;
    /// nil once, when the route finishes. Each packet handed over counts as taken (its buffer
    /// goes back to the controller as with the iterator). `receive` must return quickly and
    /// must not call back into the flow or the transport. Keep the route while it runs:
    /// dropping the route (its reader) stops it.
    public func consume(_ receive: @escaping @Sendable (Element?) -> Void) {
        let link = self.link, bufferReturn = self.bufferReturn
        reader.channel.consume { element in
            if case .packet? = element, let entries = bufferReturn.taken(link: link) { bufferReturn.sendSoon(entries) }
            receive(element)
        }
    }

    /// An iterator over the route.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: reader, link: link, bufferReturn: bufferReturn)
    }
}
