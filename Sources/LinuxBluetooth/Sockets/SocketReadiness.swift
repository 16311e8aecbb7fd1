import Dispatch
import Synchronization

/// Waits, without blocking a thread, until a descriptor is writable, or until a deadline: a
/// DispatchSource for the readiness and a dispatch timer for the deadline, whichever fires first.
enum SocketReadiness {
    /// Whether `descriptor` became writable within `timeout` (a non-blocking connect(2) has
    /// completed, one way or the other, when its socket becomes writable).
    static func writable(_ descriptor: Int32, within timeout: Duration) async -> Bool {
        final class Once: Sendable {
            let state = Mutex<(continuation: CheckedContinuation<Bool, Never>?, writer: DispatchSourceWrite?, timer: DispatchSourceTimer?)>((nil, nil, nil))
            func finish(_ value: Bool) {
                let continuation = state.withLock { state in
                    state.writer?.cancel()
                    state.timer?.cancel()
                    defer { state = (nil, nil, nil) }
                    return state.continuation
                }
                continuation?.resume(returning: value)
            }
        }
        let once = Once()
        let queue = DispatchQueue(label: "LinuxBluetooth.SocketReadiness")
        let nanoseconds = timeout.components.seconds * 1_000_000_000 + timeout.components.attoseconds / 1_000_000_000
        return await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
            once.state.withLock { state in
                let writer = DispatchSource.makeWriteSource(fileDescriptor: descriptor, queue: queue)
                writer.setEventHandler { once.finish(true) }
                let timer = DispatchSource.makeTimerSource(queue: queue)
                timer.schedule(deadline: .now() + .nanoseconds(Int(clamping: nanoseconds)))
                timer.setEventHandler { once.finish(false) }
                state = (continuation, writer, timer)
                writer.resume()
                timer.resume()
            }
        }
    }
}
