import ATT
import BLE
import BLECore
import HCI
import Host
import Synchronization
import VirtualRadio

/// A central that speaks ATT by hand, on a host-mode stack of its own controller of the radio:
/// it sends the PDUs a test writes and answers nothing by itself, so a test can play a central
/// that never confirms an indication (which a ``CentralManager`` always does).
final class RawATTCentral: Sendable {
    let stack: HostStack
    let link: LEConnection
    /// Every PDU the peripheral sent, in order.
    private let log = Mutex<[[UInt8]]>([])
    private let arrivals: AsyncStream<Void>

    private init(stack: HostStack, link: LEConnection) {
        self.stack = stack
        self.link = link
        let (arrivals, input) = AsyncStream.makeStream(of: Void.self)
        self.arrivals = arrivals
        let received = link.att.received
        Task { [weak self] in
            for await pdu in received {
                self?.log.withLock { $0.append(pdu) }
                input.yield()
            }
            input.finish()
        }
    }

    /// Connects from a new controller of `radio` to the peripheral at `address`.
    static func connect(on radio: VirtualRadio, to address: BluetoothAddress, type: Peripheral.AddressType) async throws -> RawATTCentral {
        let stack = try await HostStack.start(on: radio.makeController().attach(), commandTimeout: .seconds(30), clock: radio.clock)
        let link = try await stack.connections.connect(to: address, addressType: type == .public ? .public : .random, timeout: .seconds(20))
        return RawATTCentral(stack: stack, link: link)
    }

    /// The PDUs the peripheral has sent so far, in order.
    var received: [[UInt8]] { log.withLock { $0 } }

    /// Sends `pdu` as it is.
    func send(_ pdu: [UInt8]) async throws {
        try await link.att.send(pdu)
    }

    /// Waits until `count` PDUs have come from the peripheral (of those with Attribute Opcode
    /// `opcode`, when given), and returns them all (those).
    func received(atLeast count: Int, opcode: UInt8? = nil) async throws -> [[UInt8]] {
        var waiting = arrivals.makeAsyncIterator()
        while true {
            let matching = received.filter { pdu in opcode.map { pdu.first == $0 } ?? true }
            if matching.count >= count { return matching }
            guard await waiting.next() != nil else { throw TestSensorError.stopped }
        }
    }

    /// Sends `request` and returns the PDU that answers it: the next one the peripheral sends.
    func ask(_ request: [UInt8]) async throws -> [UInt8] {
        let before = received.count
        try await send(request)
        return try await received(atLeast: before + 1)[before]
    }

    /// The value handle and CCCD handle of the characteristic of 16-bit type `type`: its
    /// declaration is found with ATT_READ_BY_TYPE_REQ for 0x2803, the CCCD as the first 0x2902
    /// after its value (Vol 3, Part G, 3.3).
    func handles(ofCharacteristic type: UInt16) async throws -> (value: UInt16, cccd: UInt16) {
        let declarations = try await readByType(0x2803)
        guard let declaration = declarations.first(where: { $0.value.count == 5 && UInt16($0.value[3]) | UInt16($0.value[4]) << 8 == type }) else {
            throw TestSensorError.stopped
        }
        let valueHandle = UInt16(declaration.value[1]) | UInt16(declaration.value[2]) << 8
        guard let cccd = try await readByType(0x2902).first(where: { $0.handle > valueHandle }) else { throw TestSensorError.stopped }
        return (valueHandle, cccd.handle)
    }

    /// ATT_READ_BY_TYPE_REQ for 16-bit `type`, repeated from past the last handle found until the
    /// server answers with an error (Attribute Not Found): every handle-value pair.
    private func readByType(_ type: UInt16) async throws -> [(handle: UInt16, value: [UInt8])] {
        var found: [(handle: UInt16, value: [UInt8])] = []
        var start: UInt16 = 0x0001
        while true {
            let response = try await ask([0x08, UInt8(start & 0xFF), UInt8(start >> 8), 0xFF, 0xFF, UInt8(type & 0xFF), UInt8(type >> 8)])
            if response.first == 0x01 { return found }
            guard response.first == 0x09, response.count >= 2, response[1] >= 2 else { throw TestSensorError.stopped }
            let length = Int(response[1])
            for start in stride(from: 2, to: response.count - length + 1, by: length) {
                found.append((UInt16(response[start]) | UInt16(response[start + 1]) << 8, Array(response[start + 2 ..< start + length])))
            }
            guard let last = found.last?.handle, last < 0xFFFF else { return found }
            start = last + 1
        }
    }

    /// Disconnects and closes the stack.
    func shutDown() async {
        _ = try? await link.disconnect()
        await stack.close()
    }
}
