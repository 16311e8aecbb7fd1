/// Keeps a paced radio from running ahead of hosts that cannot run.
///
/// Paced time follows the real clock, but the hosts on the radio run as tasks on Swift's
/// global executor. When that executor is starved (every one of its threads held by
/// CPU-bound work, or the process descheduled), real time goes on while no host reads what
/// the radio delivers; without a gate the radio would still fire its events, and a host's
/// 30 s ATT transaction timer (Core v5.4, Vol 3, Part F, 3.3.3) would expire on a response
/// that arrived long before, but that the host never had a chance to read.
///
/// So the radio asks for proof that the executor runs: a probe, a low-priority task that
/// only reports back. Jobs the hosts enqueued before the probe run before it, so a returned
/// probe proves the hosts had the executor up to the virtual time the probe went out. The
/// radio runs events at most ``realAllowance(speed:)`` of real time (times the speed) past
/// that proof. Past it, it holds: virtual time stands still until the probe returns, and then
/// the real clock's mapping is moved on by the time held, so no host loses time to a stall
/// it could not see. A new probe goes out when half the allowance is used and events are
/// scheduled; an idle radio sends none.
///
/// Manual timing has no gate: time moves only when a test says so.
struct HostProgressGate {
    /// How far the radio may run events past the last proof that its hosts' executor runs: one
    /// second of virtual time, below the host timers that matter (HCI's 2 s command timeout,
    /// ATT's 30 s), in real time no less than 1 ms (a probe costs a task; at 20,000x a second
    /// of virtual time is 50 µs) and no more than 20 ms (at 10x, 200 ms of virtual time), far
    /// above a thread's scheduling latency on a busy machine.
    static func realAllowance(speed: Double) -> Duration {
        let oneVirtualSecond = Duration.microseconds(Int64(1_000_000 / speed))
        return min(max(oneVirtualSecond, .milliseconds(1)), .milliseconds(20))
    }

    /// The allowance in virtual microseconds, at the radio's speed.
    let allowance: Micros
    /// The virtual time up to which the hosts are proven to have run.
    private var provenUpTo: Micros = 0
    /// The virtual time the probe in flight went out at; nil when none is in flight.
    private var probeSentAt: Micros?
    /// Whether events were held back at ``limit`` since the last probe returned.
    private(set) var isHolding = false

    /// A gate for a radio paced at `speed` times real time.
    init(speed: Double) {
        allowance = max(1, Micros(Double(Self.realAllowance(speed: speed).microsRoundedUp) * speed))
    }

    /// The latest virtual time the radio may run events to.
    var limit: Micros { provenUpTo.addingReportingOverflow(allowance).overflow ? .max : provenUpTo + allowance }

    /// Whether a probe should go out now, with the radio's time heading for `target`: none is
    /// in flight, and `target` is past half the allowance.
    func needsProbe(heading target: Micros) -> Bool {
        probeSentAt == nil && target > limit - allowance / 2
    }

    /// Records that a probe went out at virtual time `now`.
    mutating func probeSent(at now: Micros) { probeSentAt = now }

    /// Moves the proof on by `micros`, with a jump of the radio's time (``VirtualRadio/advance(by:)``),
    /// which the gate does not hold back.
    mutating func shift(by micros: Micros) {
        provenUpTo += micros
        probeSentAt = probeSentAt.map { $0 + micros }
    }

    /// Records that events were held back at ``limit``.
    mutating func hold() { isHolding = true }

    /// Records that the probe in flight came back: the hosts ran up to the time it went out.
    /// Returns whether the radio was holding (its real clock's mapping must then move on by
    /// the time held).
    mutating func probeReturned() -> Bool {
        if let sent = probeSentAt { provenUpTo = max(provenUpTo, sent) }
        probeSentAt = nil
        defer { isHolding = false }
        return isHolding
    }
}
