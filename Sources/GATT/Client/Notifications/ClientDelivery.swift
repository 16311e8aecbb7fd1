/// Where one subscriber's values go: its sequence's continuation, and, when the subscriber gave
/// one, a receiver the client calls with each value instead of yielding it (the continuation
/// then only finishes, when the subscription ends).
struct ClientDelivery: Sendable {
    let continuation: AsyncStream<RemoteNotification>.Continuation
    let receiver: (@Sendable (RemoteNotification) -> Void)?

    /// Hands `notification` on.
    func deliver(_ notification: RemoteNotification) {
        if let receiver { receiver(notification) } else { continuation.yield(notification) }
    }
}
