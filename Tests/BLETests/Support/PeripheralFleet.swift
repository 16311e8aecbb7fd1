import BLE
import Foundation
import Synchronization
import Testing
import VirtualRadio

/// Several ``PeripheralManager``s on one virtual radio, each advertising "Fleet N" with the fleet
/// service, so that a test can hold them all from one central and tell what reached whom: every
/// value a member serves or sends carries its index N, and every write it receives is logged.
///
/// ```
/// Primary Service F1EE0000-...                  (each member)
///   F1EE0001 name    [read]          = "member N"          answered by the stack
///   F1EE0002 counter [notify]                              [N, k] for k = 0, 1, ... from send(_:)
///   F1EE0003 command [read, write]   read: "reply N"; writes logged   answered through requests
/// ```
struct PeripheralFleet {
    static let service = BluetoothUUID("F1EE0000-3C4D-4E5F-8A6B-7C8D9E0FA1B2")!
    static let name = BluetoothUUID("F1EE0001-3C4D-4E5F-8A6B-7C8D9E0FA1B2")!
    static let counter = BluetoothUUID("F1EE0002-3C4D-4E5F-8A6B-7C8D9E0FA1B2")!
    static let command = BluetoothUUID("F1EE0003-3C4D-4E5F-8A6B-7C8D9E0FA1B2")!

    let radio: VirtualRadio
    let members: [Member]

    /// A radio (paced at 50 times real time) with `count` members, each powered on, serving and
    /// advertising.
    static func make(count: Int, seed: UInt64) async throws -> PeripheralFleet {
        let radio = VirtualRadio(seed: seed, timing: .paced(speed: 50))
        var members: [Member] = []
        for index in 0..<count { members.append(try await Member.start(index: index, on: radio)) }
        return PeripheralFleet(radio: radio, members: members)
    }

    /// Scans with the fleet service's filter until every member is found.
    ///
    /// - Returns: the central's peripheral of each member, by index.
    func discover(from central: CentralManager) async throws -> [Peripheral] {
        var found: [Int: Peripheral] = [:]
        for try await discovery in central.scanForPeripherals(withServices: [Self.service]) {
            let name = try #require(discovery.advertisementData.localName)
            let index = try #require(members.firstIndex { $0.localName == name }, "an advertiser \(name) not of the fleet")
            found[index] = discovery.peripheral
            if found.count == members.count { break }
        }
        return try members.indices.map { try #require(found[$0], "member \($0) not found") }
    }

    /// Ends the members and the radio.
    func shutDown() async {
        for member in members { await member.manager.close() }
        radio.shutDown()
    }

    /// One member: its manager, its characteristics, and what it received.
    final class Member: Sendable {
        let index: Int
        let manager: PeripheralManager
        let counter: MutableCharacteristic
        let command: MutableCharacteristic
        /// The values centrals wrote to its command characteristic, in order.
        var writes: [Data] { log.withLock { $0.writes } }
        /// Its advertised name: "Fleet N".
        var localName: String { "Fleet \(index)" }

        private struct Log {
            var writes: [Data] = []
            var holdsReads = false
        }

        private let log = Mutex(Log())
        private let heldReadInput: AsyncStream<ATTRequest>.Continuation
        /// The reads of its command characteristic it left unanswered while ``holdReads()`` was on.
        let heldReads: AsyncStream<ATTRequest>
        private let subscriptionInput: AsyncStream<SubscriptionEvent>.Continuation
        /// Its manager's subscriptions, as they come (the member's own reader passes them on).
        let subscriptions: AsyncStream<SubscriptionEvent>

        private init(index: Int, manager: PeripheralManager, counter: MutableCharacteristic, command: MutableCharacteristic) {
            self.index = index
            self.manager = manager
            self.counter = counter
            self.command = command
            (heldReads, heldReadInput) = AsyncStream.makeStream(of: ATTRequest.self)
            (subscriptions, subscriptionInput) = AsyncStream.makeStream(of: SubscriptionEvent.self)
        }

        /// Starts member `index` on `radio`: powered on, serving the fleet service, advertising.
        static func start(index: Int, on radio: VirtualRadio) async throws -> Member {
            // A request deadline past the central's 30 s ATT timer: a held read stays pending.
            let manager = PeripheralManager(transport: .virtual(radio), options: .init(requestDeadline: .seconds(60)))
            for await state in manager.stateUpdates where state != .unknown {
                guard state == .poweredOn else { throw TestSensorError.notPoweredOn(state) }
                break
            }
            let counter = MutableCharacteristic(type: PeripheralFleet.counter, properties: [.notify], value: nil, permissions: [])
            let command = MutableCharacteristic(type: PeripheralFleet.command, properties: [.read, .write], value: nil,
                                                permissions: [.readable, .writeable])
            let service = MutableService(type: PeripheralFleet.service, primary: true)
            service.characteristics = [
                MutableCharacteristic(type: PeripheralFleet.name, properties: [.read], value: Data("member \(index)".utf8), permissions: [.readable]),
                counter, command,
            ]
            try await manager.add(service)
            let member = Member(index: index, manager: manager, counter: counter, command: command)
            Task { [weak member] in
                for await request in manager.requests { member?.answer(request) }
            }
            Task { [subscriptionInput = member.subscriptionInput] in
                for await event in manager.subscriptions { subscriptionInput.yield(event) }
                subscriptionInput.finish()
            }
            try await manager.startAdvertising(AdvertisementData(localName: member.localName, serviceUUIDs: [PeripheralFleet.service]))
            return member
        }

        /// From now on, leaves reads of the command characteristic unanswered (``heldReads``).
        func holdReads() { log.withLock { $0.holdsReads = true } }

        /// Sends `count` notifications of the counter, [index, k] for k = `first`..., waiting for
        /// room in the transmit queue when it is full.
        func send(_ count: Int, from first: Int = 0) async {
            var ready = manager.readyToUpdateSubscribers.makeAsyncIterator()
            for k in first..<(first + count) {
                while !manager.updateValue(Data([UInt8(index), UInt8(truncatingIfNeeded: k)]), for: counter, onSubscribedCentrals: nil) {
                    guard await ready.next() != nil else { return }
                }
            }
        }

        private func answer(_ request: PeripheralRequest) {
            switch request {
            case .read(let read):
                if log.withLock({ $0.holdsReads }) {
                    heldReadInput.yield(read)
                    return
                }
                read.value = Data("reply \(index)".utf8).dropFirst(read.offset)
                manager.respond(to: read, withResult: .success)
            case .write(let writes):
                log.withLock { $0.writes += writes.compactMap(\.value) }
                manager.respond(to: writes[0], withResult: .success)
            }
        }
    }
}

extension Peripheral {
    /// The fleet service's characteristics on the current connection, discovered, by UUID.
    func fleetCharacteristics() async throws -> [BluetoothUUID: Characteristic] {
        let service = try #require(try await discoverServices([PeripheralFleet.service]).first, "the fleet service")
        return Dictionary(uniqueKeysWithValues: try await discoverCharacteristics(for: service).map { ($0.uuid, $0) })
    }
}
