import ATT
import Foundation
import BLE
import BLECore
import GATT
import HCI
import Host
import Synchronization
import VirtualRadio

/// A peripheral for the central under test: a host-mode stack on its own controller of the
/// radio, advertising, with a GATT server on every link (until the BLE layer has its own
/// peripheral manager), and the links it accepted.
final class TestSensor: Sendable {
    let controller: VirtualController
    let stack: HostStack
    let server: GATTServer
    private let advertiser: LEAdvertiser
    private let links: AsyncStream<LEConnection>
    private let rule = Mutex<HoldRule?>(nil)
    /// The ATT PDUs each accepted link brought from its central, in arrival order, by link
    /// (0 for the first link accepted).
    private let pduLog = Mutex<[[[UInt8]]]>([])
    private let advertisingData: [ADStructure]

    private init(controller: VirtualController, stack: HostStack, server: GATTServer, advertiser: LEAdvertiser,
                 links: AsyncStream<LEConnection>, advertisingData: [ADStructure]) {
        self.controller = controller
        self.stack = stack
        self.server = server
        self.advertiser = advertiser
        self.links = links
        self.advertisingData = advertisingData
    }

    /// Brings a sensor up on `radio` serving `database`, advertising `advertisingData`
    /// (connectable, every 30 ms).
    static func start(on radio: VirtualRadio, database: GATTDatabase, advertisingData: [ADStructure],
                      configuration: VirtualControllerConfiguration = .init()) async throws -> TestSensor {
        let controller = radio.makeController(configuration: configuration)
        let stack = try await HostStack.start(on: controller.attach(), commandTimeout: .seconds(30), clock: radio.clock)
        let server = try GATTServer(database: database)
        let advertiser = stack.makeAdvertiser()
        let (links, input) = AsyncStream.makeStream(of: LEConnection.self)
        let sensor = TestSensor(controller: controller, stack: stack, server: server, advertiser: advertiser, links: links,
                                advertisingData: advertisingData)
        let incoming = stack.connections.incomingConnections
        Task { [weak sensor] in
            for await link in incoming {
                guard let sensor else { return }
                let index = sensor.pduLog.withLock { log -> Int in
                    log.append([])
                    return log.count - 1
                }
                let bearer = HoldingATTBearer(link.att, log: { [weak sensor] pdu in sensor?.pduLog.withLock { $0[index].append(pdu) } }) {
                    [weak sensor] in sensor?.rule.withLock { $0 }
                }
                _ = await server.connect(bearer, clock: radio.clock)
                input.yield(link)
            }
            input.finish()
        }
        try await sensor.startAdvertising()
        return sensor
    }

    /// The identity address centrals connect to.
    var address: BluetoothAddress { stack.controller.address }
    /// Public or random.
    var addressType: Peripheral.AddressType { stack.addressType == .public ? .public : .random }
    /// The identifier a central gives this sensor.
    var identifier: UUID { Peripheral.identifier(for: address, type: addressType) }

    /// The next link a central makes to this sensor.
    func nextLink() async throws -> LEConnection {
        for await link in links { return link }
        throw TestSensorError.stopped
    }

    /// From now on, withholds from the server every PDU that `matches` (see ``HoldRule``).
    func hold(_ matches: @escaping @Sendable ([UInt8]) -> Bool) -> HoldRule {
        let made = HoldRule(matches)
        rule.withLock { $0 = made }
        return made
    }

    /// Passes every PDU to the server again.
    func release() { rule.withLock { $0 = nil } }

    /// Stops advertising.
    func stopAdvertising() async throws { try await advertiser.stop() }

    /// Advertises its data (connectable, every 30 ms), again after each connection.
    func startAdvertising() async throws {
        try await advertiser.start(stack.advertisingParameters(
            advertisingData: [.flags([.leGeneralDiscoverableMode, .brEDRNotSupported])] + advertisingData,
            intervalMin: .init(rawValue: 0x0030), intervalMax: .init(rawValue: 0x0030)))
    }

    /// How many links centrals have made to it.
    var linkCount: Int { pduLog.withLock { $0.count } }

    /// The ATT PDUs the `index`-th link (from 0) brought from its central so far, in order.
    func received(onLink index: Int) -> [[UInt8]] {
        pduLog.withLock { index < $0.count ? $0[index] : [] }
    }
}

enum TestSensorError: Error { case stopped, notPoweredOn(ManagerState) }
