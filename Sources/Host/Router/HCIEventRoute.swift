import HCI

/// The events one reader asked for (``HCICommandFlow/events(_:capacity:label:)``), in arrival
/// order: packets, and ``HCIRouted/overflow(dropped:)`` where the route's queue was full. One
/// reader; dropping the route and its iterators (or cancelling the reading task) ends it, and
/// the flow removes it.
public struct HCIEventRoute: AsyncSequence, Sendable {
    /// An event, or a report of events dropped before it.
    public typealias Element = HCIRouted<HCIEventPacket>

    let reader: HCIRouteReader<Element>

    /// Takes the route's elements in order; nil once the route has ended.
    public struct AsyncIterator: AsyncIteratorProtocol {
        let reader: HCIRouteReader<Element>

        /// The next element, waiting for it; nil when the route has ended.
        public mutating func next() async -> Element? {
            await reader.channel.next(isolation: nil)
        }

        /// The next element, waiting for it on `actor` (a `for await` loop in an actor's method
        /// takes what the queue holds with no suspension, and waits on that actor); nil when the
        /// route has ended.
        public mutating func next(isolation actor: isolated (any Actor)?) async -> Element? {
            await reader.channel.next(isolation: actor)
        }
    }

    /// An iterator over the route.
    public func makeAsyncIterator() -> AsyncIterator {
        AsyncIterator(reader: reader)
    }
}
