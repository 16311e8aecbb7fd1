import Glibc
import Testing
@testable import LinuxBluetooth

/// Breaker findings for ``SocketReadiness``: each test failed before its fix.
@Suite("SocketReadiness: any timeout", .timeLimit(.minutes(1)))
struct SocketReadinessBreakerTests {
    /// A connected socket pair whose first end is writable at once.
    static func writableDescriptor() throws -> (Int32, Int32) {
        let fds = try seqpacketPair()
        return (fds[0], fds[1])
    }

    /// `L2CAPATTChannel.connect(timeout:)` hands its timeout to SocketReadiness, which turned it
    /// into nanoseconds with a multiplication that traps past Int64.max (about 292 years): a
    /// caller meaning "no timeout" with `.seconds(Int64.max)` crashed the process. Run in a child
    /// process, so the crash before the fix fails this test alone.
    @Test("a huge timeout waits as long as it can instead of trapping on the nanosecond count")
    func hugeTimeout() async {
        await #expect(processExitsWith: .success) {
            let (ready, other) = try SocketReadinessBreakerTests.writableDescriptor()
            let writable = await SocketReadiness.writable(ready, within: .seconds(Int64.max))
            close(ready)
            close(other)
            exit(writable ? EXIT_SUCCESS : EXIT_FAILURE)
        }
    }

    @Test("a wait that timed out has let go of its descriptor's registration: the next socket given that number is seen writable")
    func closedAfterTheWaitLeavesNoRegistration() async throws {
        let chunk = [UInt8](repeating: 0, count: 4096)
        for _ in 0..<500 {
            let (full, other) = try Self.writableDescriptor()
            while chunk.withUnsafeBytes({ send(full, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 {}
            #expect(await SocketReadiness.writable(full, within: .milliseconds(1)) == false)
            close(full)                                      // as a connect that timed out closes its socket
            close(other)
            let (ready, peer) = try Self.writableDescriptor()  // most often given the same numbers
            defer { close(ready); close(peer) }
            let writable = await SocketReadiness.writable(ready, within: .seconds(2))
            #expect(writable, "descriptor \(ready) (the closed one was \(full))")
            if !writable { break }
        }
    }

    @Test("a timeout of zero or less gives up at once on a socket that does not become writable")
    func zeroTimeout() async throws {
        // A listening-like state is awkward to make; a socket whose send buffer is full stays unwritable.
        let (full, other) = try Self.writableDescriptor()
        defer { close(full); close(other) }
        let chunk = [UInt8](repeating: 0, count: 4096)
        while chunk.withUnsafeBytes({ send(full, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 {}
        #expect(await SocketReadiness.writable(full, within: .zero) == false)
        #expect(await SocketReadiness.writable(full, within: .seconds(-5)) == false)
    }
}

/// Cancelling a wait for readiness: `L2CAPATTChannel.connect` abandons its attempt when the
/// caller's task is cancelled (a central cancelling a connection), instead of waiting out the
/// timeout.
@Suite("SocketReadiness: cancellation", .timeLimit(.minutes(1)))
struct SocketReadinessCancellationTests {
    @Test("a cancelled wait on a socket that never becomes writable returns false at once, long before its timeout")
    func cancelledWaitEnds() async throws {
        let (full, other) = try SocketReadinessBreakerTests.writableDescriptor()
        defer { close(full); close(other) }
        let chunk = [UInt8](repeating: 0, count: 4096)
        while chunk.withUnsafeBytes({ send(full, $0.baseAddress, $0.count, Int32(MSG_DONTWAIT)) }) > 0 {}
        let waiting = Task { await SocketReadiness.writable(full, within: .seconds(600)) }
        waiting.cancel()
        #expect(await waiting.value == false)
        // Cancelled before the wait began: the same, at once.
        let early = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await SocketReadiness.writable(full, within: .seconds(600))
        }
        #expect(await early.value == false)
    }
}

/// The capability check kernel mode makes to explain a refused command.
@Suite("ProcessCapabilities")
struct ProcessCapabilitiesTests {
    @Test("CapEff in /proc/PID/status gives the effective set: CAP_NET_RAW is bit 13, CAP_NET_ADMIN bit 12")
    func parsesCapEff() {
        let root = ProcessCapabilities.parse(status: "Name:\tblectl\nCapInh:\t0000000000000000\nCapEff:\t000001ffffffffff\n")
        #expect(root?.contains([.netRaw, .netAdmin]) == true)
        let raw = ProcessCapabilities.parse(status: "CapEff:\t0000000000002000\n")
        #expect(raw?.contains(.netRaw) == true && raw?.contains(.netAdmin) == false)
        #expect(ProcessCapabilities.parse(status: "CapEff:\t0000000000000000\n") == [])
        #expect(ProcessCapabilities.parse(status: "Name:\tx\n") == nil)
        #expect(ProcessCapabilities.parse(status: "CapEff:\tnot-hex\n") == nil)
        #expect(ProcessCapabilities.effective != nil)   // this machine has procfs
    }
}
