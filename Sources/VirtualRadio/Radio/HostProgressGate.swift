/// Keeps a paced radio from running ahead of hosts that cannot keep up.
///
/// Paced time follows the real clock, but the hosts on the radio run as tasks on Swift's
/// global executor. When that executor is starved (its threads held by CPU-bound work, or the
/// process descheduled) or congested (every job waits behind a long queue), real time goes on
/// while the hosts read little of what the radio delivers; without a gate the radio would
/// still fire its events, and a host's 30 s ATT transaction timer (Core v5.4, Vol 3, Part F,
/// 3.3.3) would expire on a response that arrived long before, but that the host's chain of
/// tasks had not carried to the engine yet.
///
/// So the radio measures the executor with probes: low-cost tasks, at the priority of the task
/// that made the radio, that only report back. Jobs enqueued before a probe run before it, so
/// a returned probe proves the hosts had the executor up to the virtual time it went out, and
/// its round trip is the executor's queueing delay. While events are scheduled, a probe is
/// always on its way (at most one, and at most one every ``probeInterval``). The radio holds
/// its time still:
/// - while a probe has been out longer than ``stallThreshold``: the executor is starved or
///   congested, and every host's chain of tasks needs that delay per hop;
/// - and past ``allowance`` of virtual time beyond the last proof, however fast probes were.
/// When the probe comes back, the real clock's mapping moves on by the time held, so no host
/// loses virtual time to a stall it could not see.
///
/// Manual timing has no gate: time moves only when a test says so.
struct HostProgressGate {
    /// The least real time between two probes: 1 ms, so that a radio with events scheduled
    /// costs at most a thousand small tasks a second.
    static let probeInterval: Duration = .milliseconds(1)
    /// How long a probe may be out before the radio holds: 5 ms of real time, above a busy
    /// machine's usual scheduling latency. A host's reply takes a few tens of hops between
    /// tasks; at 5 ms each, that is well inside ATT's 30 s at the speeds tests use.
    static let stallThreshold: Duration = .milliseconds(5)

    /// How far the radio may run events past the last proof that its hosts' executor runs: one
    /// second of virtual time, below the host timers that matter (HCI's 2 s command timeout,
    /// ATT's 30 s), in real time no less than 1 ms (at 20,000x a second of virtual time is
    /// 50 µs) and no more than 20 ms (at 10x, 200 ms of virtual time).
    static func realAllowance(speed: Double) -> Duration {
        let oneVirtualSecond = Duration.microseconds(Int64(1_000_000 / speed))
        return min(max(oneVirtualSecond, .milliseconds(1)), .milliseconds(20))
    }

    /// The probe on its way: the virtual and real times it went out at.
    private struct Probe {
        let virtual: Micros
        let real: ContinuousClock.Instant
    }

    /// The allowance in virtual microseconds, at the radio's speed.
    let allowance: Micros
    /// The virtual time up to which the hosts are proven to have run.
    private var provenUpTo: Micros = 0
    private var probe: Probe?
    private var lastSent: ContinuousClock.Instant?
    /// Whether the radio holds its time until the probe on its way comes back.
    private(set) var isHolding = false

    /// A gate for a radio paced at `speed` times real time.
    init(speed: Double) {
        allowance = max(1, Micros(Double(Self.realAllowance(speed: speed).microsRoundedUp) * speed))
    }

    /// The latest virtual time the radio may run events to, however fast probes come back.
    var limit: Micros { provenUpTo.addingReportingOverflow(allowance).overflow ? .max : provenUpTo + allowance }

    /// Decides, with events scheduled, how far the radio may go towards `target` at real time
    /// `real` and virtual time `now`: returns the time to run to, and whether a probe must go
    /// out now (the caller sends it).
    mutating func admit(_ target: Micros, now: Micros, real: ContinuousClock.Instant) -> (runTo: Micros, sendProbe: Bool) {
        if let probe, real - probe.real > Self.stallThreshold { isHolding = true }
        var runTo = target
        if isHolding {
            runTo = now
        } else if target > limit {
            runTo = max(now, limit)
            isHolding = true
        }
        let due = probe == nil && (isHolding || lastSent.map { real - $0 >= Self.probeInterval } ?? true)
        if due {
            probe = Probe(virtual: now, real: real)
            lastSent = real
        }
        return (runTo, due)
    }

    /// The real time until the gate must look again (the probe on its way turns stale, or the
    /// next probe is allowed), from `real`; nil while holding (the probe's return wakes it).
    func nextCheck(from real: ContinuousClock.Instant) -> Duration? {
        guard !isHolding else { return nil }
        if let probe { return max(.zero, probe.real + Self.stallThreshold - real) }
        return max(.zero, (lastSent ?? real) + Self.probeInterval - real)
    }

    /// Moves the proof on by `micros`, with a jump of the radio's time (``VirtualRadio/advance(by:)``),
    /// which the gate does not hold back.
    mutating func shift(by micros: Micros) {
        provenUpTo += micros
        if let sent = probe { probe = Probe(virtual: sent.virtual + micros, real: sent.real) }
    }

    /// Records that the probe on its way came back: the hosts ran up to the virtual time it
    /// went out at. Returns whether the radio was holding (its real clock's mapping must then
    /// move on by the time held).
    mutating func probeReturned() -> Bool {
        if let sent = probe { provenUpTo = max(provenUpTo, sent.virtual) }
        probe = nil
        defer { isHolding = false }
        return isHolding
    }
}
