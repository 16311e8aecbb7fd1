import Testing
import BLECore
import GATT
import HCI
@testable import blectl

/// Breaker findings for blectl's kernel-mode arguments: each test failed before its fix.
@Suite("blectl serve (kernel mode): breaker findings")
struct KernelServeBreakerTests {
    @Test("--manufacturer with more data than the 31-octet scan response holds is a usage error, not silently dropped")
    func manufacturerTooLong() throws {
        // 28 octets of data: 2 (AD length, type 0xFF) + 2 (company) + 28 = 32 > 31.
        let tooLong = "0xFFFF:" + String(repeating: "ab", count: 28)
        let run = try BlectlRun(["serve", "--db", KernelServeTests.reference, "--manufacturer", tooLong])
        #expect(run.status == 2)
        #expect(run.error.contains("--manufacturer carries at most 27 octets of data"), "\(run.error)")

        // 27 octets fit exactly: the payloads keep them (the name then has no room left).
        let fits = try #require(ServeOptions.manufacturer("0xFFFF:" + String(repeating: "ab", count: 27)))
        let (_, response) = ServeAdvertising.payloads(services: [], name: "LinuxBLE", manufacturer: fits)
        #expect(response == [.manufacturerSpecificData(fits)])
        #expect(try AdvertisingData(structures: response).encoded.count == 31)
    }
}
