import BLECore
import HCI

/// Host mode on one controller, put together: the command flow and its router over the
/// transport, the controller's bring-up, and the connection manager; scanners and advertisers
/// made for it use the controller's command family and address (Core v5.4, Vol 4, Part E).
///
/// ```swift
/// let stack = try await HostStack.start(on: transport)              // H4 over TCP, the user channel, a virtual controller
/// let advertiser = stack.makeAdvertiser()
/// try await advertiser.start(stack.advertisingParameters(advertisingData: [.localName(ADLocalName(bytes: Array("LinuxBLE".utf8)))]))
/// for await connection in stack.connections.incomingConnections { ... }
/// ```
public final class HostStack: Sendable {
    /// The link to the controller.
    public let transport: any HCITransport
    /// Commands, events and ACL data to and from the controller.
    public let flow: HCICommandFlow
    /// What bring-up found.
    public let controller: ControllerInformation
    /// Links, ACL flow control and L2CAP.
    public let connections: LEConnectionManager
    /// The settings the connection manager was started with.
    public let configuration: LEConnectionManager.Configuration
    /// The clock of command, connection and procedure timeouts.
    private let clock: any Clock<Duration>

    private init(transport: any HCITransport, flow: HCICommandFlow, controller: ControllerInformation, connections: LEConnectionManager,
                 configuration: LEConnectionManager.Configuration, clock: any Clock<Duration>) {
        self.transport = transport
        self.flow = flow
        self.controller = controller
        self.connections = connections
        self.configuration = configuration
        self.clock = clock
    }

    /// Brings the controller behind `transport` up (``ControllerBringUp``) and starts the
    /// connection manager. On failure the transport is closed.
    ///
    /// - Parameters:
    ///   - staticRandomAddress: the address to use when the controller has no public one (a
    ///     stored one); nil makes a new one.
    ///   - commandTimeout: how long each HCI command may wait for its answer (2 s by default).
    ///   - clock: the clock of command, connection and procedure timeouts.
    ///   - executor: where the stack's tasks run (``HCICommandFlow/executor``); nil for the
    ///     cooperative pool.
    /// - Throws: ``ControllerBringUpError``, naming the command that failed.
    public static func start(on transport: any HCITransport, staticRandomAddress: BluetoothAddress? = nil,
                             configuration: LEConnectionManager.Configuration = .init(),
                             commandTimeout: Duration = HCICommandFlow.defaultCommandTimeout,
                             clock: any Clock<Duration> = ContinuousClock(),
                             executor: (any TaskExecutor)? = nil) async throws(ControllerBringUpError) -> HostStack {
        let flow = HCICommandFlow(transport: transport, clock: clock, commandTimeout: commandTimeout, executor: executor)
        let controller: ControllerInformation
        do {
            controller = try await ControllerBringUp.run(on: flow, staticRandomAddress: staticRandomAddress)
        } catch {
            await flow.close()
            throw error
        }
        let connections = await LEConnectionManager(flow: flow, controller: controller, configuration: configuration, clock: clock)
        return HostStack(transport: transport, flow: flow, controller: controller, connections: connections,
                         configuration: configuration, clock: clock)
    }

    /// Brings the same controller up again after it reported a Hardware Error (Core v5.4, Vol 4,
    /// Part E, 7.7.16: the host is to reset it), on the same transport and command flow: this
    /// stack's links end (with Hardware Failure, 0x03, if the manager had not ended them
    /// already), their routes close, bring-up runs again from HCI_Reset, and a new connection
    /// manager starts. The stack keeps its static random address, so peers and bonds still know
    /// it. This stack is done with afterwards; use the one returned. The scanners and
    /// advertisers made from this one are done too: their scans and advertising end, and they
    /// no longer watch the controller's events (each sees its route end on its own task, which
    /// may be just after this returns: then the discoveries stream finishes, and
    /// ``LEScanner/isScanning`` and ``LEAdvertiser/isStarted`` turn false); make new ones from
    /// the stack returned.
    ///
    /// - Throws: ``ControllerBringUpError``, naming the command that failed (the transport is
    ///   left open: close it, or try again).
    public func restart() async throws(ControllerBringUpError) -> HostStack {
        await connections.controllerFailed()
        await flow.controllerReset()
        let address = controller.ownAddressType == .random ? controller.address : nil
        let controller = try await ControllerBringUp.run(on: flow, staticRandomAddress: address)
        let connections = await LEConnectionManager(flow: flow, controller: controller, configuration: configuration, clock: clock)
        return HostStack(transport: transport, flow: flow, controller: controller, connections: connections,
                         configuration: configuration, clock: clock)
    }

    /// The address type peers see this host with: public, or random for its static address.
    public var addressType: LEAddressType { controller.ownAddressType == .public ? .public : .random }

    /// A scanner for this controller's command family.
    public func makeScanner() -> LEScanner { LEScanner(flow: flow, capabilities: controller.capabilities) }

    /// An advertiser for this controller's command family. It re-advertises after connections
    /// only while it is kept.
    public func makeAdvertiser() -> LEAdvertiser { LEAdvertiser(flow: flow, capabilities: controller.capabilities) }

    /// Advertising parameters with this host's own address filled in (Own_Address_Type, and an
    /// extended set's random address); the rest as ``LEAdvertisingParameters`` takes them, with
    /// advertising again after each connection, for more centrals.
    public func advertisingParameters(advertisingData: [ADStructure], scanResponse: [ADStructure] = [], isConnectable: Bool = true,
                                      intervalMin: LEExtendedAdvertisingInterval = LEExtendedAdvertisingInterval(rawValue: 0x00A0),
                                      intervalMax: LEExtendedAdvertisingInterval = LEExtendedAdvertisingInterval(rawValue: 0x00F0))
        -> LEAdvertisingParameters {
        LEAdvertisingParameters(advertisingData: advertisingData, scanResponse: scanResponse, isConnectable: isConnectable,
                                intervalMin: intervalMin, intervalMax: intervalMax, ownAddressType: controller.ownAddressType,
                                readvertiseAfterConnection: true,
                                randomAddress: controller.ownAddressType == .random ? controller.address : nil)
    }

    /// Scan parameters with this host's own address type.
    public func scanParameters(scanType: LEScanType = .active, filterDuplicates: Bool = true) -> LEScanParameters {
        LEScanParameters(scanType: scanType, filterDuplicates: filterDuplicates, ownAddressType: controller.ownAddressType)
    }

    /// Ends the links and the flow, and closes the transport.
    public func close() async {
        await connections.close()
        await flow.close()
    }
}
