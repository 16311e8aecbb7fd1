import Synchronization

/// The Service Changed confirmation a client sent, recorded by the ATT engine the moment it
/// arrives and taken by the server when it serves the client's next request, so that a client
/// that confirms and then sends a request at once is change-aware for that request (Core v5.4,
/// Vol 3, Part G, 2.5.2.1). Holds the database generation the indication announced.
final class GATTServiceChangedConfirmation: Sendable {
    private let confirmed = Mutex<UInt64?>(nil)

    init() {}

    /// Records that the client confirmed the Service Changed indication sent at `generation`.
    func record(_ generation: UInt64) {
        confirmed.withLock { $0 = generation }
    }

    /// The generation last confirmed, if any since the last call; clears it.
    func take() -> UInt64? {
        confirmed.withLock { value in
            defer { value = nil }
            return value
        }
    }
}
