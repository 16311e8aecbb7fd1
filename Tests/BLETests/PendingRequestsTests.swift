@testable import BLE
import BLECore
import ATT
import Foundation
import Testing

/// The requests a peripheral manager asked the application (``PendingRequests``): each answered
/// exactly once, by the application or at its deadline.
@Suite("Peripheral manager: pending requests", .timeLimit(.minutes(1)))
struct PendingRequestsTests {
    static func request() -> ATTRequest {
        ATTRequest(central: Central(address: BluetoothAddress("C0:00:00:00:00:01")!, type: .random),
                   characteristic: MutableCharacteristic(type: BluetoothUUID(0x2A19), properties: [.read], value: nil, permissions: [.readable]),
                   offset: 0, value: nil, writeType: nil)
    }

    @Test("a deadline that has passed by the time the request is stored still answers it with Unlikely Error")
    func zeroDeadline() async {
        let pending = PendingRequests()
        for _ in 0..<200 {
            let code = await pending.ask(Self.request(), deadline: .zero, clock: ContinuousClock(), deliver: {})
            #expect(code == .unlikelyError)
        }
    }

    @Test("the application's answer comes first and is the one given; the deadline then answers nothing")
    func answeredBeforeDeadline() async {
        let pending = PendingRequests()
        let request = Self.request()
        let code = await pending.ask(request, deadline: .seconds(3600), clock: ContinuousClock()) {
            #expect(pending.answer(request, with: .success))
        }
        #expect(code == .success)
        #expect(!pending.answer(request, with: .unlikelyError), "answered once only")
    }
}
