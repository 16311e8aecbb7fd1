/// The notifications or indications of one characteristic, for one subscriber (Core v5.4,
/// Vol 3, Part G, 4.10 and 4.11), from ``GATTClient/notifications(for:kind:)``.
///
/// ```swift
/// let updates = try await client.notifications(for: heartRate)   // CCCD written if first
/// for await update in updates {
///     print(update.value)                                        // [0x06, 0x48]
///     if done { break }                                           // CCCD cleared if last
/// }
/// ```
///
/// Values arrive in the order the server sent them. The subscription ends with ``cancel()``,
/// when its iterator is discarded (the `for await` loop ends or its task is cancelled), or when
/// the subscription itself is dropped unused; the sequence finishes when it ends, when Service
/// Changed covers the characteristic, or when the bearer closes. One iterator per subscription:
/// subscribe again for another reader (the Client Characteristic Configuration is
/// reference-counted, so only the first subscriber and the last to leave write it).
public struct GATTClientSubscription: AsyncSequence, Sendable {
    /// What the subscriber asked the server for: the bit it sets in the Client Characteristic
    /// Configuration descriptor (Part G, 3.3.3.3, Table 3.11).
    public enum Kind: Sendable, Hashable, CustomStringConvertible {
        /// Notifications: bit 0, 0x0001 (Part G, 4.10).
        case notification
        /// Indications: bit 1, 0x0002 (Part G, 4.11); each is confirmed by the ATT engine.
        case indication

        /// The bit this kind sets in the Client Characteristic Configuration value.
        public var configurationBit: UInt16 { self == .notification ? 0x0001 : 0x0002 }

        /// "notification" or "indication".
        public var description: String { self == .notification ? "notification" : "indication" }
    }

    /// The element: one notified or indicated value.
    public typealias Element = RemoteNotification
    /// A subscription never throws: it finishes.
    public typealias Failure = Never

    /// The characteristic subscribed to.
    public let characteristic: RemoteCharacteristic
    /// Notifications or indications.
    public let kind: Kind
    /// The Client Characteristic Configuration descriptor's handle.
    public let configurationHandle: UInt16

    let id: UInt64
    let client: GATTClient
    let stream: AsyncStream<RemoteNotification>

    /// Iterates the values; when the iterator is discarded (the `for await` loop ends, by
    /// `break`, `return` or its task's cancellation), the subscription ends.
    public struct Iterator: AsyncIteratorProtocol {
        var base: AsyncStream<RemoteNotification>.Iterator
        let ending: ClientSubscriptionEnding

        /// The next value; nil once the subscription has ended.
        public mutating func next() async -> RemoteNotification? {
            await base.next()
        }
    }

    /// The iterator over the values. Iterate once: the subscription ends with its iterator.
    public func makeAsyncIterator() -> Iterator {
        Iterator(base: stream.makeAsyncIterator(), ending: ClientSubscriptionEnding(client: client, id: id))
    }

    /// Ends this subscription: the sequence finishes, and if it was the last subscriber of its
    /// kind, the client rewrites the Client Characteristic Configuration without its bit
    /// (0x0000 when no subscriber is left) before returning (Core v5.4, Vol 3, Part G, 4.12.3).
    /// Cancelling twice does nothing more.
    ///
    /// - Throws: the write's failure: ``GATTClientError/errorResponse(request:handle:code:)``
    ///   when the server refuses it, ``GATTClientError/closed`` or ``GATTClientError/timeout``
    ///   when the bearer ends under it. The subscription has ended here all the same; the
    ///   server's CCCD keeps the bit, so it may go on sending values, which are dropped.
    public func cancel() async throws(GATTClientError) {
        if let failure = await client.unsubscribe(id, waiting: true) { throw failure }
    }

    /// Ends this subscription here without writing the Client Characteristic Configuration,
    /// for a characteristic a change of the server's database took away (a Service Changed
    /// range, Core v5.4, Vol 3, Part G, 7.1, or a Database Out Of Sync recovery): its
    /// configuration handle may name another attribute now. The sequence finishes; discarding
    /// the iterator afterwards writes nothing either.
    public func forget() async {
        await client.forget(id)
    }
}

/// Ends a subscription when its iterator goes away.
final class ClientSubscriptionEnding: Sendable {
    let client: GATTClient
    let id: UInt64

    init(client: GATTClient, id: UInt64) {
        self.client = client
        self.id = id
    }

    deinit {
        let client = client
        let id = id
        Task { await client.unsubscribe(id, waiting: false) }
    }
}
