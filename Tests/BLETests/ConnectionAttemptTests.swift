@testable import BLE
import Testing

extension CentralCore {
    /// Makes attempt `number` the peripheral's, as a `connect` or a restoration does (for tests).
    func install(attempt number: UInt64, for peripheral: Peripheral) {
        peripheral.record.withLock { $0.state = .connecting }
        live[peripheral.identifier] = peripheral
        attempts[peripheral.identifier] = ConnectionAttempt(number: number, task: Task { .failure(.cancelled) })
    }

    /// The peripheral's attempt's number, if it has one.
    func attemptNumber(of peripheral: Peripheral) -> UInt64? { attempts[peripheral.identifier]?.number }
}

/// Only the attempt that is the peripheral's makes its link current: a restoration's set-up
/// that the application cancelled, and that finished after the application connected again,
/// took that new attempt's place before, and the new attempt then failed with its own good link.
@Suite("Connection attempts", .timeLimit(.minutes(1)))
struct ConnectionAttemptTests {
    @Test("a link set up by an attempt that is no longer the peripheral's does not make it connected")
    func staleAttemptDoesNotConnect() async throws {
        let testbed = try await BLETestbed.make(seed: 67)
        let core = testbed.central.core
        let peripheral = testbed.peripheral
        let backend = try await core.readyBackend()
        let link = try await backend.connect(to: peripheral.address, addressType: peripheral.addressType.leAddressType,
                                             timeout: .seconds(20), security: .none)
        let session = await core.newSession(on: link, clock: backend.clock)
        core.watch(link, of: peripheral, session: session, backend: backend)    // as a connect does
        await core.install(attempt: 2, for: peripheral)                 // the application's new attempt
        #expect(await core.connected(peripheral, attempt: 1, session: session, mtu: 23) == false)
        #expect(peripheral.state == .connecting)
        #expect(await core.attemptNumber(of: peripheral) == 2, "the new attempt keeps its place")
        #expect(await core.connected(peripheral, attempt: 2, session: session, mtu: 23))
        #expect(peripheral.state == .connected)
        await link.terminate()
        await testbed.shutDown()
    }
}
