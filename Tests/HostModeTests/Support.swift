import ATT
import BLECore
import Foundation
import GATT
import HCI
import Host
import Testing
import VirtualRadio

/// One host-mode stack on a virtual controller: the flow, what bring-up found, the links.
struct Node {
    let controller: VirtualController
    let flow: HCICommandFlow
    let information: ControllerInformation
    let manager: LEConnectionManager

    /// Brings a stack up on a new controller of `radio`.
    static func make(_ radio: VirtualRadio, configuration: VirtualControllerConfiguration = .init(),
                     managerConfiguration: LEConnectionManager.Configuration = .init(),
                     staticAddress: BluetoothAddress? = nil) async throws -> Node {
        let controller = radio.makeController(configuration: configuration)
        let flow = HCICommandFlow(transport: controller.attach(), commandTimeout: .seconds(30))
        let information = try await ControllerBringUp.run(on: flow, staticRandomAddress: staticAddress)
        let manager = await LEConnectionManager(flow: flow, controller: information, configuration: managerConfiguration)
        return Node(controller: controller, flow: flow, information: information, manager: manager)
    }

    /// The address type peers see this node with.
    var addressType: LEAddressType { information.ownAddressType == .public ? .public : .random }

    /// Starts connectable advertising with `name`.
    func advertise(_ name: String = "LinuxBLE") async throws -> LEAdvertiser {
        let advertiser = LEAdvertiser(flow: flow, capabilities: information.capabilities)
        try await advertiser.start(LEAdvertisingParameters(
            advertisingData: [.flags([.leGeneralDiscoverableMode, .brEDRNotSupported]), .localName(ADLocalName(bytes: Array(name.utf8)))],
            intervalMin: .init(rawValue: 0x0030), intervalMax: .init(rawValue: 0x0030),
            ownAddressType: information.ownAddressType, readvertiseAfterConnection: true,
            randomAddress: information.ownAddressType == .random ? information.address : nil))
        return advertiser
    }

    /// The next link that comes in.
    func nextIncoming() async throws -> LEConnection {
        for await connection in manager.incomingConnections { return connection }
        throw HostModeTestError.noIncomingConnection
    }
}

enum HostModeTestError: Error { case noIncomingConnection }

/// A central and a peripheral on one radio, linked, with a GATT server on the peripheral and a
/// GATT client on the central.
struct GATTLink {
    let radio: VirtualRadio
    let central: Node
    let peripheral: Node
    let centralConnection: LEConnection
    let peripheralConnection: LEConnection
    let server: GATTServer
    let serverConnection: GATTServerConnection
    let client: GATTClient

    static let repository = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent()

    static func database(_ name: String) throws -> GATTDatabase {
        try GATTDatabase(jsonFile: repository.appendingPathComponent("Fixtures/gatt-databases/\(name)").path)
    }

    static func make(database: String = "reference.json", centralConfiguration: VirtualControllerConfiguration = .init(),
                     peripheralConfiguration: VirtualControllerConfiguration = .init(), speed: Double = 200) async throws -> GATTLink {
        let radio = VirtualRadio(seed: 7, timing: .paced(speed: speed))
        let central = try await Node.make(radio, configuration: centralConfiguration)
        let peripheral = try await Node.make(radio, configuration: peripheralConfiguration)
        _ = try await peripheral.advertise()
        async let incoming = peripheral.nextIncoming()
        let centralConnection = try await central.manager.connect(to: peripheral.information.address, addressType: peripheral.addressType,
                                                                  parameters: LEConnectionParametersRequest(intervalMin: 6, intervalMax: 6, timeout: 100),
                                                                  timeout: .seconds(20))
        let peripheralConnection = try await incoming
        let server = try GATTServer(database: try Self.database(database))
        let serverConnection = await server.connect(peripheralConnection.att)
        let client = GATTClient(engine: ATTEngine(bearer: centralConnection.att))
        return GATTLink(radio: radio, central: central, peripheral: peripheral, centralConnection: centralConnection,
                        peripheralConnection: peripheralConnection, server: server, serverConnection: serverConnection, client: client)
    }
}
