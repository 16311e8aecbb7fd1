import HCI
import Host
import Synchronization

/// The radio's one serial executor: every controller, link and scheduled event lives in one
/// ``RadioWorld`` behind one `Mutex`, and every entry point (a host's packet, a test's
/// ``VirtualRadio/advance(by:)``, the paced driver, the clock) runs to completion under it.
/// Packets for hosts are yielded inside the lock, so each host sees them in the order they
/// were made.
final class RadioCore: Sendable {
    let state: Mutex<RadioWorld>

    init(seed: UInt64, timing: VirtualRadio.Timing) {
        state = Mutex(RadioWorld(seed: seed, timing: timing))
    }

    /// Runs `body` on the world after every event already due (paced timing) has run.
    func withWorld<R: Sendable>(_ body: (RadioWorld) -> R) -> R {
        state.withLock { world in
            world.catchUp()
            return body(world)
        }
    }

    func currentTime() -> Micros { withWorld { $0.now } }

    // MARK: Sleepers

    func makeSleeperID() -> UInt64 { state.withLock { $0.makeSleeperID() } }

    func addSleeper(_ id: UInt64, due: Micros, _ continuation: CheckedContinuation<Void, any Error>) {
        let ready: Bool = state.withLock { world in
            world.catchUp()
            return world.addSleeper(id, due: due, continuation)
        }
        if ready { continuation.resume() }
    }

    func cancelSleeper(_ id: UInt64) {
        let continuation = state.withLock { $0.cancelSleeper(id) }
        continuation?.resume(throwing: CancellationError())
    }

    // MARK: Manual time

    func advance(by duration: Duration) {
        state.withLock { world in world.advance(by: max(duration, .zero).microsRoundedUp) }
    }

    // MARK: The paced driver

    /// Sleeps until the next due event, runs what is due, and sleeps again; woken early when an
    /// earlier event is scheduled. It never polls: with nothing scheduled it waits for a kick.
    func drive() async {
        while true {
            let plan: (stop: Bool, delay: Duration?) = state.withLock { world in
                guard !world.stopped else { return (true, nil) }
                world.catchUp()
                world.driverTarget = world.queue.nextTime
                world.kickPending = false
                return (false, world.queue.nextTime.map { world.realDelay(until: $0) })
            }
            if plan.stop { return }
            let timer: Task<Void, Never>? = plan.delay.map { delay in
                Task { [self] in
                    guard (try? await Task.sleep(for: delay)) != nil else { return }
                    kick()
                }
            }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow: Bool = state.withLock { world in
                    if world.kickPending || world.stopped {
                        world.kickPending = false
                        return true
                    }
                    world.driverWaiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
            timer?.cancel()
        }
    }

    func kick() { state.withLock { $0.wakeDriver() } }

    /// Stops the paced driver and ends every host's stream and every sleeper.
    func stop() { state.withLock { $0.stop() } }
}

/// Keeps the radio running while anything public refers to it; when the last reference goes,
/// the paced driver stops (it holds only the core).
final class RadioLifetime: Sendable {
    let core: RadioCore

    init(core: RadioCore) { self.core = core }

    deinit { core.stop() }
}
