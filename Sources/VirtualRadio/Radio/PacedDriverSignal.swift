#if canImport(Glibc)
import Glibc
#endif

/// How the paced driver's thread waits: until a deadline on the monotonic clock, or until it is
/// kicked (an earlier event was scheduled, time jumped, or the radio stopped), whichever comes
/// first. A kick that comes while the driver is not waiting is kept, so the next wait returns at
/// once: no kick is lost between the driver planning its wait and starting it.
///
/// A condition variable on CLOCK_MONOTONIC (POSIX `pthread_cond_timedwait`), so a wait costs
/// one thread wake-up; a `Task.sleep` per event cost several (the dispatch timer thread, then a
/// pool thread for the sleeper, then another for the driver).
final class PacedDriverSignal: @unchecked Sendable {
    // Sendable by its own locking: `kicked` is only touched with `mutex` held, and the
    // pthread objects live (at fixed addresses) as long as the signal.
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var kicked = false

    init() {
        pthread_mutex_init(mutex, nil)
        var attributes = pthread_condattr_t()
        pthread_condattr_init(&attributes)
        pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC)
        pthread_cond_init(condition, &attributes)
        pthread_condattr_destroy(&attributes)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        condition.deallocate()
        mutex.deallocate()
    }

    /// Wakes the waiting driver, or the next wait if none waits now.
    func kick() {
        pthread_mutex_lock(mutex)
        kicked = true
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Waits until kicked, or until `delay` has passed (nil: no deadline), then clears the kick.
    func wait(for delay: Duration?) {
        pthread_mutex_lock(mutex)
        defer {
            kicked = false
            pthread_mutex_unlock(mutex)
        }
        guard let delay else {
            while !kicked { pthread_cond_wait(condition, mutex) }
            return
        }
        guard delay > .zero else { return }
        var deadline = timespec()
        clock_gettime(CLOCK_MONOTONIC, &deadline)
        let (seconds, attoseconds) = delay.components
        let nanoseconds = Int(deadline.tv_nsec) + Int(attoseconds / 1_000_000_000)
        deadline.tv_sec += Int(seconds) + nanoseconds / 1_000_000_000
        deadline.tv_nsec = nanoseconds % 1_000_000_000
        while !kicked {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { return }
        }
    }
}
