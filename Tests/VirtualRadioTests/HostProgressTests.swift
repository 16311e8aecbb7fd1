import Foundation
import HCI
import Testing
import VirtualRadio

@Suite("VirtualRadio paced timing waits for hosts that cannot run", .timeLimit(.minutes(1)))
struct HostProgressTests {
    /// Holds a thread for `duration` of real time without suspending, as a CPU-bound test does;
    /// returns the radio's time at the end.
    static func occupyThread(for duration: Duration, radio: VirtualRadio) -> Duration {
        let end = ContinuousClock.now + duration
        var spins = 0
        while ContinuousClock.now < end { spins &+= 1 }
        return radio.now
    }

    /// A radio paced at `speed` with one controller advertising every 20 ms of virtual time, so
    /// that events are scheduled throughout.
    static func advertisingRadio(speed: Double, waitsForHosts: Bool) async throws -> VirtualRadio {
        let radio = VirtualRadio(seed: 9, timing: .paced(speed: speed), waitsForHosts: waitsForHosts)
        let peripheral = TestHost(radio.makeController(configuration: configuration(2)))
        try await peripheral.bringUp()
        try await peripheral.command(advertisingParameters(interval: 0x0020))
        try await peripheral.command(HCILESetAdvertisingEnable(enable: true))
        return radio
    }

    /// Twice as many CPU-bound tasks as threads, each `busy` long, at the priority the radio
    /// was made at (its probes run at it too): while any of them waits to start, the executor
    /// runs nothing that was enqueued after them. Returns the radio's time at each one's end.
    static func occupyEveryThread(for busy: Duration, radio: VirtualRadio) async -> [Duration] {
        let threads = ProcessInfo.processInfo.activeProcessorCount
        let priority = Task.currentPriority
        let tasks = (0..<threads * 2).map { _ in
            Task.detached(priority: priority) { occupyThread(for: busy, radio: radio) }
        }
        var ends: [Duration] = []
        for task in tasks { ends.append(await task.value) }
        return ends
    }

    @Test("with every thread of the hosts' executor busy, a paced radio holds its events, then resumes where it stood")
    func holdsWhileExecutorIsStarved() async throws {
        let speed = 1000.0
        let radio = try await Self.advertisingRadio(speed: speed, waitsForHosts: true)
        let busy: Duration = .milliseconds(400)
        let start = radio.now
        let seenAtEnds = await Self.occupyEveryThread(for: busy, radio: radio)
        let afterwards = radio.now

        // Unheld, the first busy task's 400 ms of real time at 1000x would be 400 s of virtual
        // time; when it ends, half the others still wait to start.
        let ungated = busy * speed
        let first = try #require(seenAtEnds.min()), latest = try #require(seenAtEnds.max())
        #expect(first - start < ungated / 4, "the radio ran \(first - start) while its hosts could not run")
        #expect(afterwards - latest < ungated / 4, "the radio jumped \(afterwards - latest) when its hosts ran again")

        // And it runs on afterwards: a second of virtual time passes.
        try await radio.clock.sleep(for: .seconds(1))
        #expect(radio.now - afterwards >= .seconds(1))
        radio.shutDown()
    }

    @Test("a radio made with waitsForHosts false runs on at its pace while the hosts' executor is busy")
    func runsOnWhenNotWaiting() async throws {
        let speed = 1000.0
        let radio = try await Self.advertisingRadio(speed: speed, waitsForHosts: false)
        #expect(!radio.waitsForHosts)
        let busy: Duration = .milliseconds(400)
        let start = radio.now
        let seenAtEnds = await Self.occupyEveryThread(for: busy, radio: radio)
        let first = try #require(seenAtEnds.min())
        // The first busy task's 400 ms at 1000x: 400 s of virtual time, run without waiting.
        #expect(first - start > busy * speed / 2, "the radio ran only \(first - start)")
        radio.shutDown()
    }
}
