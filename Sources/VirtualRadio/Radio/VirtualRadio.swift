import BLECore
import Foundation
import HCI

/// A radio that links any number of in-process LE controllers on one virtual clock: the
/// project's embedded controller for whole-stack tests, `make run` and benchmarks.
///
/// ```swift
/// let radio = VirtualRadio(seed: 7, timing: .manual)
/// let central = radio.makeController(configuration: .init(publicAddress: BluetoothAddress("C0:00:00:00:00:01")))
/// let peripheral = radio.makeController(configuration: .init(publicAddress: BluetoothAddress("C0:00:00:00:00:02")))
/// let flow = HCICommandFlow(transport: central.attach(), clock: radio.clock)
/// try await flow.send(HCIReset())
/// await radio.advance(by: .milliseconds(100))   // advertising and connection events run
/// ```
///
/// On the air (Core v5.4, Vol 6, Part B):
/// - advertising events fall at the advertising interval plus advDelay (0-10 ms, 4.4.2.2.1);
///   every controller in range that is scanning (inside its scan window) or initiating hears
///   them; active scanners send SCAN_REQ and get the set's real scan response data;
/// - connection events fall at the connection interval from the first anchor point, 2.5 ms
///   after CONNECT_IND; each carries data both ways within the interval's air time, with
///   acknowledgement and retransmission (4.5.9) and control procedures at their instants.
///   Only connection events with something to carry are run; an idle link costs nothing;
/// - a link that hears nothing for its supervision timeout ends with Connection Timeout (0x08)
///   on both sides (4.5.2).
///
/// Determinism: every random choice (advDelay, RSSI jitter, dropped PDUs) comes from one
/// `SplitMix64` seeded with `seed`, and events at one instant run in the order they were
/// scheduled. In manual timing, the same seed and the same host packets in the same order give
/// the same packets out, byte for byte, in the same order.
///
/// The radio, its controllers and its clock share one lock (the radio's serial executor);
/// everything they do runs to completion under it. The radio runs while the radio, a
/// controller, a port or the clock is referenced; when the last goes, paced time stops and
/// every host's stream finishes.
public final class VirtualRadio: Sendable {
    /// How virtual time moves.
    public enum Timing: Hashable, Sendable {
        /// Only when a test calls ``VirtualRadio/advance(by:)``: deterministic.
        case manual
        /// With real time times `speed` (1 is real time; a benchmark uses a large speed). A
        /// driver thread sleeps until the next due event; it runs an event up to 50 µs of real
        /// time early (the kernel's timer slack), so virtual time may lead the pace by that
        /// much. It never runs ahead of hosts that cannot keep up: while events are scheduled,
        /// a probe task (at most one a millisecond) measures the hosts' executor, and the radio
        /// holds its time while the executor is starved or congested, then resumes where it
        /// stood (see `HostProgressGate`), so a loaded machine slows virtual time rather than
        /// expire hosts' timers on answers they had no chance to read.
        case paced(speed: Double)
    }

    let lifetime: RadioLifetime
    var core: RadioCore { lifetime.core }

    /// The radio's virtual time, as a `Clock` hosts can run their own timeouts on.
    public let clock: VirtualClock

    /// The timing given at creation.
    public let timing: Timing

    /// Whether paced time waits for hosts that cannot keep up (given at creation).
    public let waitsForHosts: Bool

    /// The seed given at creation.
    public let seed: UInt64

    /// A radio with no controllers at time zero.
    ///
    /// - Parameters:
    ///   - seed: the seed of every random choice the radio makes.
    ///   - timing: manual, or paced by real time (speed 1 by default); a speed of 0 or less is
    ///     taken as 1.
    ///   - waitsForHosts: in paced timing, whether the radio holds its time while its hosts'
    ///     executor is starved or congested (``Timing/paced(speed:)``); true by default. A
    ///     throughput benchmark whose hosts keep their timers on the real clock, and keep the
    ///     executor busy on purpose, turns it off.
    ///   - hostExecutors: the task executors of hosts that do not run on the cooperative pool
    ///     (a host stack started with an executor of its own, such as LinuxBluetooth's
    ///     `HostExecutor`): the radio waits for these too.
    public init(seed: UInt64 = 1, timing: Timing = .paced(speed: 1), waitsForHosts: Bool = true,
                hostExecutors: [any TaskExecutor] = []) {
        var timing = timing
        if case .paced(let speed) = timing, !(speed > 0) || !speed.isFinite { timing = .paced(speed: 1) }
        self.timing = timing
        self.waitsForHosts = waitsForHosts
        self.seed = seed
        let core = RadioCore(seed: seed, timing: timing, waitsForHosts: waitsForHosts, hostExecutors: hostExecutors)
        lifetime = RadioLifetime(core: core)
        clock = VirtualClock(core: core, lifetime: lifetime)
        if case .paced = timing {
            let driver = Thread { core.drive() }
            driver.name = "VirtualRadio paced driver"
            driver.start()
        }
    }

    /// Adds a controller to the radio, in range of every other, with no host attached yet.
    /// Controllers are numbered from 0 in the order they are made.
    public func makeController(configuration: VirtualControllerConfiguration = VirtualControllerConfiguration()) -> VirtualController {
        let index: Int = core.withWorld { world in
            let model = ControllerModel(index: world.controllers.count, configuration: configuration)
            world.controllers.append(model)
            return model.index
        }
        return VirtualController(lifetime: lifetime, index: index, configuration: configuration, radioSeed: seed)
    }

    /// The current virtual time since the radio started.
    public var now: Duration { .micros(core.currentTime()) }

    /// Moves virtual time forward by `duration` (rounded up to a microsecond), running every
    /// scheduled radio event and clock sleeper that falls due, in order; then lets woken tasks
    /// run. In paced timing the jump is added to the real clock's mapping.
    public func advance(by duration: Duration) async {
        core.advance(by: duration)
        await Task.yield()
    }

    /// Sets the received signal strength between two controllers, in dBm (both directions);
    /// reports and Read RSSI add ±3 dBm of seeded jitter. -60 dBm when never set.
    public func setRSSI(_ dBm: Int8, between a: VirtualController, and b: VirtualController) {
        core.withWorld { world in world.pairRSSI[PairKey(a.index, b.index)] = dBm }
    }

    /// Lets two controllers hear each other or not (both directions); links between them keep
    /// their state and end at their supervision timeout unless hearing resumes first.
    public func setHearing(_ canHear: Bool, between a: VirtualController, and b: VirtualController) {
        core.withWorld { world in
            if canHear { world.blockedPairs.remove(PairKey(a.index, b.index)) } else { world.blockedPairs.insert(PairKey(a.index, b.index)) }
            world.rangeChanged(world.controllers[a.index])
        }
    }

    /// Stops the radio: paced time stops, every host's stream finishes, clock sleepers throw
    /// `CancellationError`. Later packets from hosts are refused with `HCITransportError.closed`.
    public func shutDown() { core.stop() }
}
