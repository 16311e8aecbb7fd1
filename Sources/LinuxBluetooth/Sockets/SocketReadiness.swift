import Dispatch
import Synchronization

/// Waits, without blocking a thread, until a descriptor is writable, or until a deadline: a
/// DispatchSource for the readiness and a dispatch timer for the deadline, whichever fires first.
enum SocketReadiness {
    /// `duration` in whole nanoseconds, saturated to 0...Int.max (about 292 years): the count
    /// of seconds times 10^9 overflows past that, and a negative duration is no wait at all.
    static func nanoseconds(_ duration: Duration) -> Int {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0, attoseconds >= 0 else { return 0 }
        let (whole, overflow) = seconds.multipliedReportingOverflow(by: 1_000_000_000)
        guard !overflow else { return Int.max }
        let (total, carry) = whole.addingReportingOverflow(attoseconds / 1_000_000_000)
        return carry ? Int.max : Int(clamping: total)
    }

    /// Whether `descriptor` became writable within `timeout` (a non-blocking connect(2) has
    /// completed, one way or the other, when its socket becomes writable). False too when the
    /// calling task is cancelled, at once: the caller tells the two apart with
    /// `Task.isCancelled`.
    ///
    /// Returns only once the write source has been cancelled and taken out of libdispatch's
    /// registrations (its cancel handler has run): the caller may close the descriptor then. A
    /// registration left behind a close would be found again, by descriptor number, by the next
    /// socket the kernel gives that number, whose readiness it would then never report.
    static func writable(_ descriptor: Int32, within timeout: Duration) async -> Bool {
        final class Once: Sendable {
            struct State {
                var continuation: CheckedContinuation<Bool, Never>?
                var writer: DispatchSourceWrite?
                var timer: DispatchSourceTimer?
                var finished = false
                var value = false
            }
            let state = Mutex(State())

            /// The first outcome stands: the sources are cancelled, and the caller resumes once
            /// the write source's cancel handler has run (at once when there is none yet).
            func finish(_ value: Bool) {
                let (writer, timer, now) = state.withLock { state -> (DispatchSourceWrite?, DispatchSourceTimer?, CheckedContinuation<Bool, Never>?) in
                    guard !state.finished else { return (nil, nil, nil) }
                    state.finished = true
                    state.value = value
                    guard state.writer == nil else { return (state.writer, state.timer, nil) }
                    defer { state.continuation = nil }
                    return (nil, state.timer, state.continuation)
                }
                timer?.cancel()
                writer?.cancel()
                now?.resume(returning: value)
            }

            /// The write source is unregistered: the caller may go on (and close the descriptor).
            func writerCancelled() {
                let (continuation, value) = state.withLock { state in
                    defer { state.continuation = nil; state.writer = nil; state.timer = nil }
                    return (state.continuation, state.value)
                }
                continuation?.resume(returning: value)
            }
        }
        let once = Once()
        let queue = DispatchQueue(label: "LinuxBluetooth.SocketReadiness")
        let nanoseconds = Self.nanoseconds(timeout)
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let cancelledAlready = once.state.withLock { state -> Bool in
                    guard !state.finished else { return true }
                    let writer = DispatchSource.makeWriteSource(fileDescriptor: descriptor, queue: queue)
                    writer.setEventHandler { once.finish(true) }
                    writer.setCancelHandler { once.writerCancelled() }
                    let timer = DispatchSource.makeTimerSource(queue: queue)
                    timer.schedule(deadline: .now() + .nanoseconds(nanoseconds))
                    timer.setEventHandler { once.finish(false) }
                    state.continuation = continuation
                    state.writer = writer
                    state.timer = timer
                    writer.resume()
                    timer.resume()
                    return false
                }
                if cancelledAlready { continuation.resume(returning: false) }
            }
        } onCancel: {
            once.finish(false)
        }
    }
}
