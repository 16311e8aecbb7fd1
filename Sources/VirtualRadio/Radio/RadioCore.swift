import HCI
import Host
import Synchronization

/// The radio's one serial executor: every controller, link and scheduled event lives in one
/// ``RadioWorld`` behind one `Mutex`, and every entry point (a host's packet, a test's
/// ``VirtualRadio/advance(by:)``, the paced driver, the clock) runs to completion under it.
/// Packets for hosts are yielded inside the lock, so each host sees them in the order they
/// were made; the clock's sleepers are resumed after it is released (see ``RadioWorld``'s
/// resumes), so that no lock is taken in the opposite order by a task being cancelled.
final class RadioCore: Sendable {
    let state: Mutex<RadioWorld>

    init(seed: UInt64, timing: VirtualRadio.Timing, waitsForHosts: Bool = true, hostExecutors: [any TaskExecutor] = []) {
        state = Mutex(RadioWorld(seed: seed, timing: timing, waitsForHosts: waitsForHosts))
        // The probe runs at the priority of the task that made the radio, where its hosts
        // normally run: Dispatch keeps a pool of threads per priority, and a probe of another
        // priority would prove nothing of the hosts' pool. Hosts on executors of their own
        // (a host stack's thread) are measured there too: the probe visits each in turn, so it
        // returns once every one has run what was queued before it.
        let priority = Task.currentPriority
        state.withLock { world in
            world.sendProbe = { [weak self] in
                Task.detached(priority: priority) {
                    for executor in hostExecutors { await withTaskExecutorPreference(executor) {} }
                    self?.probeReturned()
                }
            }
        }
    }

    /// Runs `body` on the world after every event already due (paced timing) has run.
    ///
    /// In paced timing it then runs what falls due within ``driverLead`` (often what `body`
    /// scheduled: a host's packet makes a connection event due a fraction of a µs of real time
    /// later at 20,000x), here, on the caller's thread, rather than waking the driver's thread
    /// for it.
    func withWorld<R: Sendable>(_ body: (RadioWorld) -> R) -> R {
        locked { world in
            world.catchUp()
            world.inEntry = true
            let result = body(world)
            world.inEntry = false
            _ = world.driverStep(lead: Self.driverLead)
            // What is still ahead, the driver must know of.
            if case .paced = world.timing, let next = world.queue.nextTime, world.driverTarget.map({ next < $0 }) ?? true {
                world.driverTarget = next
                world.wakeDriver()
            }
            return result
        }
    }

    func currentTime() -> Micros { withWorld { $0.now } }

    /// Runs `body` under the lock, then resumes the clock's sleepers it made due, outside it.
    private func locked<R: Sendable>(_ body: (RadioWorld) -> R) -> R {
        let (result, resumes) = state.withLock { world in (body(world), world.takeResumes()) }
        for resume in resumes {
            if resume.cancelled {
                resume.continuation.resume(throwing: CancellationError())
            } else {
                resume.continuation.resume()
            }
        }
        return result
    }

    // MARK: Sleepers

    func makeSleeperID() -> UInt64 { state.withLock { $0.makeSleeperID() } }

    func addSleeper(_ id: UInt64, due: Micros, _ continuation: CheckedContinuation<Void, any Error>) {
        let ready: Bool = locked { world in
            world.catchUp()
            return world.addSleeper(id, due: due, continuation)
        }
        if ready { continuation.resume() }
    }

    func cancelSleeper(_ id: UInt64) {
        let continuation = locked { $0.cancelSleeper(id) }
        continuation?.resume(throwing: CancellationError())
    }

    // MARK: Manual time

    func advance(by duration: Duration) {
        locked { world in world.advance(by: max(duration, .zero).microsRoundedUp) }
    }

    // MARK: The paced driver

    /// How far ahead of real time the paced driver runs events: 50 µs of real time, Linux's
    /// default timer slack, by which a timed wait overshoots anyway. Without it, events closer
    /// together than that (7.5 ms connection events at 20,000x are 0.375 µs apart) would cost
    /// a 50 µs wait each.
    static let driverLead: Duration = .microseconds(50)

    /// Sleeps until the next due event, runs what is due (and what falls due within
    /// ``driverLead``), and sleeps again; woken early when an earlier event is scheduled, and,
    /// while events are scheduled, when ``HostProgressGate`` must look at its probe again (at
    /// most every millisecond). With nothing scheduled it waits for a kick. Runs on a thread of
    /// its own (``VirtualRadio`` starts it) until the radio stops.
    func drive() {
        while true {
            let plan: (stop: Bool, delay: Duration?, signal: PacedDriverSignal) = locked { world in
                guard !world.stopped else { return (true, nil, world.driverSignal) }
                let delay = world.driverStep(lead: Self.driverLead)
                world.driverTarget = world.queue.nextTime
                return (false, delay, world.driverSignal)
            }
            if plan.stop { return }
            plan.signal.wait(for: plan.delay)
        }
    }

    func kick() { locked { $0.wakeDriver() } }

    /// A probe of the hosts' executor ran (``HostProgressGate``).
    func probeReturned() { locked { $0.probeReturned() } }

    /// Stops the paced driver and ends every host's stream and every sleeper.
    func stop() { locked { $0.stop() } }
}

/// Keeps the radio running while anything public refers to it; when the last reference goes,
/// the paced driver stops (it holds only the core).
final class RadioLifetime: Sendable {
    let core: RadioCore

    init(core: RadioCore) { self.core = core }

    deinit { core.stop() }
}
