@testable import BLE
import BLECore
import Foundation
import Testing
import VirtualRadio
import BLETestSupport

/// A central flooding Write Commands while the application reads its requests slowly.
@Suite("Peripheral manager: a flood of write commands", .timeLimit(.minutes(1)))
struct RequestFloodTests {
    @Test("a central's flood of write commands drops its own oldest, never another central's read waiting for an answer")
    func floodKeepsOthersRequests() async throws {
        // The read's deadline is 25 s, not 10, so that a slow flood (about 3 s of radio time
        // when idle) still comes in well before it, and before the central's 30 s ATT timeout.
        let pair = try await PeripheralManagerTests.Pair.make(seed: 141, managerOptions: ManagerOptions(requestDeadline: .seconds(25)))
        let (peripheral, characteristics) = try await pair.connect()
        let setting = try #require(characteristics[PeripheralManagerTests.setting])
        let address = try #require(await pair.manager.localAddress)
        let flooder = try await RawATTCentral.connect(on: pair.radio, to: address.address, type: address.type)
        let handle = try #require(pair.setting.valueHandle)
        let location = try #require(pair.location.valueHandle)

        // A read waits for the application, which reads nothing until the flood is in: the
        // read's request is among the first in the queue, with more than 256 commands behind it.
        let start = pair.radio.now
        let read = Task { try await peripheral.readValue(for: setting) }
        let commands = RequestQueue.commandCapacity + 144
        for index in 0..<commands {
            try await flooder.send([0x52, UInt8(handle & 0xFF), UInt8(handle >> 8), UInt8(truncatingIfNeeded: index), UInt8(index >> 8)])
        }
        // The server handles a link's PDUs in order: once this read is answered, every command is in.
        #expect(try await flooder.ask([0x0A, UInt8(location & 0xFF), UInt8(location >> 8)]) == [0x0B, 0x01])

        #expect(pair.radio.now - start < .seconds(25), "the flood is in before the read's deadline")
        var requests = pair.manager.requests.makeAsyncIterator()
        var waiting: ATTRequest?
        var kept: [Int] = []
        while waiting == nil || kept.count < RequestQueue.commandCapacity, let request = await requests.next() {
            switch request {
            case .read(let request):
                waiting = request
            case .write(let writes):
                let value = [UInt8](writes[0].value ?? Data())
                #expect(writes[0].writeType == .withoutResponse)
                kept.append(Int(value[0]) | Int(value[1]) << 8)
            }
        }
        #expect(kept == Array(commands - RequestQueue.commandCapacity ..< commands), "the newest commands, in order")
        let answered = try #require(waiting)
        answered.value = Data([0x42])
        pair.manager.respond(to: answered, withResult: .success)
        #expect(try await read.value == Data([0x42]))
        await flooder.shutDown()
        await pair.shutDown()
    }
}
