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
