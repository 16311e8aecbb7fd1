@testable import BLE
import BLECore
import HCI
import Host
import Foundation
import Synchronization
import Testing

/// A connect made right after a scan's iteration ended waits for that scan's stop.
@Suite("Connecting right after a scan", .timeLimit(.minutes(1)))
struct ConnectAfterScanTests {
    @Test("ending a scan's iteration and connecting at once: the connect starts only after the scan has stopped")
    func connectWaitsForTheScanStop() async throws {
        let testbed = try await BLETestbed.make(seed: 61)
        let log = CallLog()
        await testbed.central.core.wrapBackend { SlowStopBackend(wrapping: $0, log: log) }
        var found: Peripheral?
        for try await discovery in testbed.central.scanForPeripherals(withServices: nil) {
            found = discovery.peripheral
            break                                   // ends the iteration: the scan stops in a task
        }
        let peripheral = try #require(found)
        try await testbed.central.connect(peripheral, options: ConnectOptions(timeout: .seconds(20)))
        // Before, the connect went to the backend while the scan's stop was still on its way (in
        // kernel mode the kernel's own scan disable was then refused and no link was made).
        #expect(log.calls == ["stop scan", "scan stopped", "connect"])
        await testbed.shutDown()
    }
}

/// The calls a backend got, in order.
final class CallLog: Sendable {
    private let entries = Mutex<[String]>([])
    func record(_ call: String) { entries.withLock { $0.append(call) } }
    var calls: [String] { entries.withLock { $0 } }
}

/// A backend whose scan stop takes a while (200 ms of real time, as a loaded controller's
/// Command Complete can), logging when stops and connects start and end.
final class SlowStopBackend: CentralBackend {
    private let inner: any CentralBackend
    private let log: CallLog
    init(wrapping inner: any CentralBackend, log: CallLog) {
        self.inner = inner
        self.log = log
    }

    var clock: any Clock<Duration> { inner.clock }
    func startScan(_ type: ScanType, filterDuplicates: Bool) async throws(BLEError) -> AsyncStream<LEDiscovery> {
        try await inner.startScan(type, filterDuplicates: filterDuplicates)
    }
    func stopScan() async throws(BLEError) {
        log.record("stop scan")
        try? await Task.sleep(for: .milliseconds(200))
        try await inner.stopScan()
        log.record("scan stopped")
    }
    func connect(to address: BluetoothAddress, addressType: LEAddressType, timeout: Duration,
                 security: SecurityLevel) async throws(BLEError) -> any BackendLink {
        log.record("connect")
        return try await inner.connect(to: address, addressType: addressType, timeout: timeout, security: security)
    }
    func connect(toAnyOf peers: [(address: BluetoothAddress, addressType: LEAddressType)], timeout: Duration) async throws(BLEError) -> any BackendLink {
        log.record("connect")
        return try await inner.connect(toAnyOf: peers, timeout: timeout)
    }
    func acceptListCapacity() async -> Int { await inner.acceptListCapacity() }
    var hasEnded: Bool { get async { await inner.hasEnded } }
    func ended() async -> BackendEnd { await inner.ended() }
    func close() async {
        await inner.close()
    }
}
