import BLECore
import HCI

/// Everything on the radio: virtual time, the event queue, the seeded generator, the
/// controllers and their links. Only ever touched under ``RadioCore``'s lock.
final class RadioWorld {
    var now: Micros = 0
    var queue = EventQueue()
    var rng: SplitMix64
    let timing: VirtualRadio.Timing
    var controllers: [ControllerModel] = []
    var links: [Int: Link] = [:]
    var nextLinkID = 1
    /// Received signal strength per unordered pair of controllers, in dBm.
    var pairRSSI: [PairKey: Int8] = [:]
    /// Pairs that cannot hear each other (beside controllers out of range of everyone).
    var blockedPairs: Set<PairKey> = []
    var stopped = false

    // Sleepers of the VirtualClock.
    private var nextSleeperID: UInt64 = 0
    private var sleepers: [UInt64: CheckedContinuation<Void, any Error>] = [:]
    private var cancelledSleepers: Set<UInt64> = []
    /// Sleepers to resume once the lock is released (``RadioCore`` does), with whether they
    /// were cancelled. Never resumed under the lock: a task being cancelled holds its own
    /// status lock while its cancellation handler waits for the radio's lock
    /// (``RadioCore/cancelSleeper(_:)``), and resuming that task needs its status lock.
    private var resumes: [(continuation: CheckedContinuation<Void, any Error>, cancelled: Bool)] = []

    // Paced timing: virtual time = anchorVirtual + (real time - anchorReal) * speed.
    private var anchorReal = ContinuousClock.now
    private var anchorVirtual: Micros = 0
    var driverTarget: Micros?
    /// Paced timing: how far events may run ahead of the hosts' executor (nil in manual timing).
    var progressGate: HostProgressGate?
    /// Sends a probe to the hosts' executor (``HostProgressGate``); ``RadioCore`` sets it.
    var sendProbe: (@Sendable () -> Void)?
    /// Whether a host's entry (``RadioCore/withWorld(_:)``) is running its body.
    var inEntry = false
    /// Wakes the paced driver's thread.
    let driverSignal = PacedDriverSignal()

    /// The RSSI of a pair no one has set, in dBm.
    static let defaultRSSI: Int8 = -60

    init(seed: UInt64, timing: VirtualRadio.Timing, waitsForHosts: Bool) {
        rng = SplitMix64(seed: seed)
        self.timing = timing
        if case .paced(let speed) = timing, waitsForHosts { progressGate = HostProgressGate(speed: speed) }
    }

    // MARK: Time

    /// In paced timing, runs every event due by the real clock and moves `now` to it.
    func catchUp() { _ = driverStep(lead: .zero) }

    /// The paced driver's step: runs every event due by the real clock plus `lead` of real
    /// time, and returns the real time until the next event is due by that same measure (nil
    /// when nothing is scheduled). Manual timing: nil.
    ///
    /// Events never run past what the hosts' executor is proven to keep up with
    /// (``HostProgressGate``): while the gate holds, the step runs nothing new and returns nil,
    /// and the probe's return wakes the driver. With events scheduled, the returned delay is
    /// also no longer than the gate's next look.
    func driverStep(lead: Duration) -> Duration? {
        guard case .paced(let speed) = timing, !stopped else { return nil }
        let real = ContinuousClock.now
        let elapsed = (real - anchorReal + lead).microsRoundedUp
        var target = anchorVirtual + Micros(Double(elapsed) * speed)
        var check: Duration?
        if var gate = progressGate, queue.count > 0 {
            let admitted = gate.admit(target, now: now, real: real)
            progressGate = gate
            if admitted.sendProbe { sendProbe?() }
            target = admitted.runTo
            if gate.isHolding {
                run(until: target)
                return nil
            }
            check = gate.nextCheck(from: real)
        }
        run(until: max(now, target))
        let untilEvent: Duration? = queue.nextTime.map { .microseconds(Double($0 - max(now, target)) / speed) }
        guard let check, let untilEvent else { return untilEvent }
        return min(check, untilEvent)
    }

    /// The probe of ``HostProgressGate`` came back. After a hold, the real clock's mapping
    /// moves on so that virtual time resumes where it stood, and the driver plans anew.
    func probeReturned() {
        guard var gate = progressGate, !stopped else { return }
        let held = gate.probeReturned()
        progressGate = gate
        guard held else { return }
        anchorReal = ContinuousClock.now
        anchorVirtual = now
        driverTarget = nil
        wakeDriver()
    }

    /// Runs every event due up to `target`, in order, then sets `now` to `target`.
    func run(until target: Micros) {
        while let event = queue.popDue(notAfter: target) {
            now = max(now, event.time)
            dispatch(event)
        }
        now = max(now, target)
    }

    /// Moves virtual time forward by `micros`, running what falls due (in paced timing the real
    /// clock's mapping moves too, so the jump stays).
    func advance(by micros: Micros) {
        if case .paced = timing {
            catchUp()
            anchorVirtual += micros
            progressGate?.shift(by: micros)
            catchUp()
            // Every later event is now due sooner in real time than the driver planned.
            driverTarget = nil
            wakeDriver()
        } else {
            run(until: now + micros)
        }
    }

    /// The real time until virtual time reaches `time`, in paced timing.
    func realDelay(until time: Micros) -> Duration {
        guard case .paced(let speed) = timing, time > now else { return .zero }
        return .microseconds(Double(time - now) / speed)
    }

    func schedule(at time: Micros, _ kind: RadioEventKind) {
        let due = max(time, now)
        queue.schedule(at: due, kind)
        // Inside a host's entry (``RadioCore/withWorld(_:)``), an event due within the driver's
        // lead runs when the entry ends (or, if it is still ahead then, the entry wakes the
        // driver for it): the driver need not wake now.
        if case .paced(let speed) = timing, driverTarget.map({ due < $0 }) ?? true,
           !(inEntry && Double(due - now) <= Double(RadioCore.driverLead.microsRoundedUp) * speed) {
            driverTarget = due
            wakeDriver()
        }
    }

    func wakeDriver() { driverSignal.kick() }

    func stop() {
        guard !stopped else { return }
        stopped = true
        queue.removeAll()
        wakeDriver()
        for controller in controllers {
            controller.port?.finish()
            controller.port = nil
        }
        let waiting = sleepers.values
        sleepers = [:]
        for sleeper in waiting { resumes.append((sleeper, true)) }
    }

    // MARK: Randomness (all of it from the seeded generator)

    /// A uniform integer in 0...upper.
    func random(upTo upper: UInt64) -> UInt64 {
        upper == UInt64.max ? rng.next() : rng.next() % (upper + 1)
    }

    /// True with probability `p`; draws nothing when `p` is 0 or 1, so a run without faults
    /// uses the same random sequence whatever the fault code does.
    func chance(_ p: Double) -> Bool {
        if p <= 0 { return false }
        if p >= 1 { return true }
        return Double(rng.next() >> 11) / Double(1 << 53) < p
    }

    // MARK: Sleepers

    func makeSleeperID() -> UInt64 {
        nextSleeperID &+= 1
        return nextSleeperID
    }

    /// Registers a sleeper; returns true when it is due already (the caller resumes it).
    func addSleeper(_ id: UInt64, due: Micros, _ continuation: CheckedContinuation<Void, any Error>) -> Bool {
        if cancelledSleepers.remove(id) != nil || stopped {
            resumes.append((continuation, true))
            return false
        }
        guard due > now else { return true }
        sleepers[id] = continuation
        schedule(at: due, .wake(sleeper: id))
        return false
    }

    /// The sleepers due to resume, taken (the caller resumes them after releasing the lock).
    func takeResumes() -> [(continuation: CheckedContinuation<Void, any Error>, cancelled: Bool)] {
        defer { resumes = [] }
        return resumes
    }

    func cancelSleeper(_ id: UInt64) -> CheckedContinuation<Void, any Error>? {
        guard let continuation = sleepers.removeValue(forKey: id) else {
            cancelledSleepers.insert(id)
            return nil
        }
        return continuation
    }

    // MARK: Radio environment

    /// Whether `a` and `b` can hear each other now.
    func canHear(_ a: ControllerModel, _ b: ControllerModel) -> Bool {
        a.inRange && b.inRange && !blockedPairs.contains(PairKey(a.index, b.index))
    }

    /// The RSSI `receiver` measures from `sender` now: the pair's level with ±3 dBm of seeded
    /// jitter, clamped to -127...20 dBm.
    func measuredRSSI(_ sender: ControllerModel, _ receiver: ControllerModel) -> Int8 {
        let level = Int(pairRSSI[PairKey(sender.index, receiver.index)] ?? Self.defaultRSSI)
        let jitter = Int(random(upTo: 6)) - 3
        return Int8(min(max(level + jitter, -127), 20))
    }

    // MARK: Dispatch

    func dispatch(_ event: RadioEvent) {
        switch event.kind {
        case .advertising(let controller, let set, let generation):
            advertisingEvent(controllers[controller], set: set, generation: generation)
        case .advertisingTimeout(let controller, let set, let generation):
            advertisingTimedOut(controllers[controller], set: set, generation: generation)
        case .scanTimeout(let controller, let generation):
            scanTimedOut(controllers[controller], generation: generation)
        case .connectionEvent(let link, let generation):
            if let link = links[link], link.generation == generation { connectionEvent(link) }
        case .supervisionTimeout(let link, let generation):
            if let link = links[link], link.supervisionGeneration == generation, link.supervisionArmed {
                supervisionTimedOut(link)
            }
        case .wake(let id):
            if let sleeper = sleepers.removeValue(forKey: id) { resumes.append((sleeper, false)) }
        case .deliver(let controller, let attachment, let packet):
            let model = controllers[controller]
            if model.attachment == attachment, model.port != nil { hand(packet, to: model) }
        }
    }

    // MARK: Output to hosts

    /// Sends `packet` to the host of `controller` (after its HCI latency fault, in order).
    func send(_ packet: HCIPacket, to controller: ControllerModel) {
        guard controller.port != nil else { return }
        let latency = controller.faults.hciLatency.microsRoundedUp
        if latency > 0 || controller.deliveryHorizon > now {
            // Never before a packet still held back, so a shorter latency cannot reorder them.
            let due = max(now + latency, controller.deliveryHorizon)
            controller.deliveryHorizon = due
            schedule(at: due, .deliver(controller: controller.index, attachment: controller.attachment, packet: packet))
        } else {
            hand(packet, to: controller)
        }
    }

    /// Gives `packet` to the host of `controller` now: to its redirect, or into its port.
    private func hand(_ packet: HCIPacket, to controller: ControllerModel) {
        if let redirect = controller.redirect {
            redirect(packet)
        } else {
            controller.port?.yield(packet)
        }
        controller.delivered += 1
    }

    /// Sends an event unless the host has masked it (Vol 4, Part E, 7.3.1 and 7.8.1). Command
    /// Complete, Command Status and Number Of Completed Packets cannot be masked.
    func emit(_ packet: HCIEventPacket, to controller: ControllerModel) {
        guard isEnabled(packet, at: controller) else { return }
        send(.event(packet), to: controller)
    }

    func isEnabled(_ packet: HCIEventPacket, at controller: ControllerModel) -> Bool {
        switch packet.code {
        case .commandComplete, .commandStatus, .numberOfCompletedPackets:
            return true
        case .leMeta:
            guard controller.eventMask.contains(.leMeta), let subevent = packet.parameters.first else { return false }
            return controller.leEventMask.contains(LEEventMask(enabling: LEMetaSubeventCode(rawValue: subevent)))
        default:
            return controller.eventMask.contains(HCIEventMask(enabling: packet.code))
        }
    }

    func isEnabled(_ subevent: LEMetaSubeventCode, at controller: ControllerModel) -> Bool {
        controller.eventMask.contains(.leMeta) && controller.leEventMask.contains(LEEventMask(enabling: subevent))
    }

    func violation(_ kind: VirtualControllerViolation.Kind, at controller: ControllerModel) {
        controller.violations.append(VirtualControllerViolation(kind: kind, time: .micros(now)))
    }
}

/// An unordered pair of controller indices.
struct PairKey: Hashable {
    let low: Int
    let high: Int

    init(_ a: Int, _ b: Int) {
        low = min(a, b)
        high = max(a, b)
    }
}
