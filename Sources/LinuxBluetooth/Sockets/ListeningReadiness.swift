import Dispatch
import Synchronization

/// The readiness source of a listening socket, shared by the listeners (``L2CAPATTListener``,
/// ``H4TCPListener``): it calls the accept handler when the socket is readable, pauses after a
/// resource error, and runs the close handler once when cancelled.
///
/// A resource error on accept (EMFILE, ENFILE, ENOBUFS, ENOMEM) leaves the connection queued and
/// the socket readable, so retrying at once would spin: ``pauseAfterResourceError()`` stops
/// watching for ``resourcePause`` and a timer resumes it (no poll: the source does the waiting).
final class ListeningReadiness: Sendable {
    /// How long accepting pauses after a resource error: 100 ms.
    static let resourcePause: DispatchTimeInterval = .milliseconds(100)

    private struct State {
        var reader: DispatchSourceRead?
        var isPaused = false
    }

    private let queue: DispatchQueue
    private let state = Mutex(State())

    /// A source for `label`'s queue; nothing is watched until ``start(descriptor:onReadable:onCancel:)``.
    init(label: String) { queue = DispatchQueue(label: label) }

    /// Watches `descriptor`: `onReadable` runs on the source's queue whenever a connection
    /// waits; `onCancel` (closing the socket) runs once, after ``cancel()``.
    func start(descriptor: Int32, onReadable: @escaping @Sendable () -> Void, onCancel: @escaping @Sendable () -> Void) {
        let queue = self.queue
        state.withLock { state in
            let reader = DispatchSource.makeReadSource(fileDescriptor: descriptor, queue: queue)
            reader.setEventHandler(handler: onReadable)
            reader.setCancelHandler(handler: onCancel)
            reader.resume()
            state.reader = reader
        }
    }

    /// Stops watching readiness for ``resourcePause``, then watches again.
    func pauseAfterResourceError() {
        let paused = state.withLock { state -> Bool in
            guard let reader = state.reader, !state.isPaused else { return false }
            reader.suspend()
            state.isPaused = true
            return true
        }
        guard paused else { return }
        queue.asyncAfter(deadline: .now() + Self.resourcePause) { [weak self] in
            self?.state.withLock { state in
                guard state.isPaused, let reader = state.reader else { return }
                state.isPaused = false
                reader.resume()
            }
        }
    }

    /// Stops watching; the close handler runs once the source lets go. Cancelling again does nothing.
    func cancel() {
        let (reader, wasPaused) = state.withLock { state in
            defer { state = State() }
            return (state.reader, state.isPaused)
        }
        if wasPaused { reader?.resume() }                 // a suspended source never runs its cancel handler
        reader?.cancel()
    }
}
