import BLECore
import HCI

/// Advertises through an ``HCICommandFlow``, with the legacy or the extended commands as the
/// controller's ``LEControllerCapabilities/commandFamily`` says (never both).
///
/// - Legacy: HCI_LE_Set_Advertising_Parameters (ADV_IND when connectable, ADV_SCAN_IND when
///   not connectable with a scan response, ADV_NONCONN_IND otherwise), HCI_LE_Set_Advertising_Data,
///   HCI_LE_Set_Scan_Response_Data, HCI_LE_Set_Advertising_Enable (Vol 4, Part E, 7.8.5 to
///   7.8.9). Each payload at most 31 octets.
/// - Extended: HCI_LE_Set_Extended_Advertising_Parameters, HCI_LE_Set_Extended_Advertising_Data,
///   HCI_LE_Set_Extended_Scan_Response_Data (when scannable), HCI_LE_Set_Extended_Advertising_Enable
///   (7.8.53 to 7.8.56). While both payloads fit 31 octets the set uses legacy PDUs (so legacy
///   scanners see it too, as Linux does); a longer payload takes extended PDUs, up to the
///   controller's Max_Advertising_Data_Length (245 octets when connectable: one AUX_ADV_IND), sent
///   in fragments of at most 251 octets with Operation first, intermediate, last (7.8.54) before
///   the set is enabled.
///
/// Advertising ends with ``stop()``, and also when the transport closes or the controller is
/// reset (``HCICommandFlow/controllerReset()``, which ``HostStack/restart()`` calls): a reset
/// controller has stopped advertising, and an advertiser made before it sends nothing after.
///
/// While it advertises connectably, the advertiser watches the controller's events. A
/// connection made from its advertising (LE Connection Complete or LE Enhanced Connection
/// Complete with role peripheral, for v2 with its Advertising_Handle; with the extended commands,
/// LE Advertising Set Terminated naming its set) stopped the advertising (7.8.9, 7.8.56,
/// 7.7.65.18). When a Disconnection Complete ends that connection, the advertiser enables
/// advertising again if ``LEAdvertisingParameters/readvertiseAfterDisconnection`` is set.
///
/// ```swift
/// let advertiser = LEAdvertiser(flow: flow, capabilities: capabilities)
/// try await advertiser.start(LEAdvertisingParameters(advertisingData: [.flags([.leGeneralDiscoverableMode])]))
/// ```
public actor LEAdvertiser {
    /// The most advertising data one HCI_LE_Set_Extended_Advertising_Data or
    /// HCI_LE_Set_Extended_Scan_Response_Data command carries: 251 octets (Vol 4, Part E, 7.8.54).
    public static let maximumFragmentLength = 251

    /// The most advertising data a connectable set with extended PDUs carries: 245 octets.
    /// Connectable advertising cannot chain (no AUX_CHAIN_IND), so the data must fit one
    /// AUX_ADV_IND, whose payload of at most 255 octets (Vol 6, Part B, 2.3.4) also holds the
    /// Extended Header Length and AdvMode (1), the Extended Header Flags (1), AdvA (6) and ADI
    /// (2); the controller refuses to enable a set whose data does not fit (Vol 4, Part E, 7.8.56).
    public static let maximumConnectableExtendedDataLength = 245

    private let flow: HCICommandFlow
    /// The controller's capabilities, whose family chooses the commands.
    public let capabilities: LEControllerCapabilities
    private var parameters: LEAdvertisingParameters?
    private var controllerAdvertising = false
    private var connections: Set<UInt16> = []
    /// Connections that an LE Advertising Set Terminated gave to another set before their own
    /// connection event arrived.
    private var foreignConnections: Set<UInt16> = []
    private var monitor: Task<Void, Never>?
    private var readvertiseErrors: [LEAdvertiserError] = []
    /// Whether an enable after a connection or disconnection is on its way.
    private var isEnablingAgain = false
    /// Counts ``start(_:)`` and ``stop()`` calls, so a start that a stop overtook (at one of its
    /// awaits) knows it no longer owns the advertising.
    private var generation: UInt64 = 0
    /// The flow's ``HCICommandFlow/controllerResets`` when advertising started: after a reset,
    /// nothing is sent for this advertising any more.
    private var resetsAtStart = 0

    /// An advertiser over `flow` for a controller with `capabilities`.
    public init(flow: HCICommandFlow, capabilities: LEControllerCapabilities) {
        self.flow = flow
        self.capabilities = capabilities
    }

    /// Whether ``start(_:)`` has run and ``stop()`` has not, nor has the transport closed or
    /// the controller been reset (advertising may be paused by a connection meanwhile).
    public var isStarted: Bool { parameters != nil }

    /// Whether the controller advertises now, as far as this advertiser knows: false between a
    /// connection made from the advertising and the re-enable after it ends.
    public var isAdvertising: Bool { controllerAdvertising }

    /// The connections made from this advertising that are still open (Connection_Handle).
    public var connectionHandles: Set<UInt16> { connections }

    /// Errors from enabling advertising again after a disconnection, oldest first: the last
    /// ``keptReadvertisingErrors`` of them.
    public var readvertisingErrors: [LEAdvertiserError] { readvertiseErrors }

    /// How many re-advertising errors ``readvertisingErrors`` keeps (older ones are dropped, so a
    /// controller that keeps refusing cannot grow memory): 16.
    public static let keptReadvertisingErrors = 16

    /// The advertising data and scan response encoded and checked against the family's limits,
    /// and the commands that would set them up, without sending anything.
    ///
    /// - Throws: ``LEAdvertiserError/encoding(_:_:)``, ``LEAdvertiserError/dataTooLong(_:length:maximum:family:)``,
    ///   ``LEAdvertiserError/intervalOutOfRange(min:max:allowed:)``,
    ///   ``LEAdvertiserError/scanResponseNeedsLegacyPDUs(advertisingDataLength:scanResponseLength:)``.
    public func commands(for parameters: LEAdvertisingParameters) throws(LEAdvertiserError) -> [any HCICommand] {
        try Self.commands(for: parameters, capabilities: capabilities)
    }

    /// The set-up commands for `parameters` on a controller with `capabilities`, in the order
    /// they are sent, the enable command last.
    ///
    /// - Throws: as ``commands(for:)``.
    public static func commands(for parameters: LEAdvertisingParameters,
                                capabilities: LEControllerCapabilities) throws(LEAdvertiserError) -> [any HCICommand] {
        let family = capabilities.commandFamily
        let allowed = LEAdvertisingParameters.allowedIntervalRange(for: family)
        guard allowed.contains(parameters.intervalMin.rawValue), allowed.contains(parameters.intervalMax.rawValue),
              parameters.intervalMin <= parameters.intervalMax
        else { throw .intervalOutOfRange(min: parameters.intervalMin, max: parameters.intervalMax, allowed: allowed) }
        let advertisingData = try encode(parameters.advertisingData, .advertisingData)
        let scanResponse = try encode(parameters.scanResponse, .scanResponse)
        let maximum = capabilities.maximumAdvertisingDataLength
        if advertisingData.count > maximum {
            throw .dataTooLong(.advertisingData, length: advertisingData.count, maximum: maximum, family: family)
        }
        if scanResponse.count > maximum {
            throw .dataTooLong(.scanResponse, length: scanResponse.count, maximum: maximum, family: family)
        }
        switch family {
        case .legacy:
            let type: LEAdvertisingType = parameters.isConnectable ? .advInd : (scanResponse.isEmpty ? .advNonconnInd : .advScanInd)
            return [
                HCILESetAdvertisingParameters(advertisingIntervalMin: LESlotDuration(rawValue: UInt16(truncatingIfNeeded: parameters.intervalMin.rawValue)),
                                              advertisingIntervalMax: LESlotDuration(rawValue: UInt16(truncatingIfNeeded: parameters.intervalMax.rawValue)),
                                              advertisingType: type, ownAddressType: parameters.ownAddressType),
                HCILESetAdvertisingData(advertisingData: advertisingData),
                HCILESetScanResponseData(scanResponseData: scanResponse),
                HCILESetAdvertisingEnable(enable: true),
            ]
        case .extended:
            let legacyPDUs = advertisingData.count <= AdvertisingData.legacyMaximumLength
                && scanResponse.count <= AdvertisingData.legacyMaximumLength
            var properties: LEAdvertisingEventProperties
            if legacyPDUs {
                properties = parameters.isConnectable ? .legacyAdvInd : (scanResponse.isEmpty ? .legacyAdvNonconnInd : [.legacy, .scannable])
            } else if scanResponse.isEmpty {
                properties = parameters.isConnectable ? [.connectable] : []
                if parameters.isConnectable, advertisingData.count > maximumConnectableExtendedDataLength {
                    throw .dataTooLong(.advertisingData, length: advertisingData.count,
                                       maximum: maximumConnectableExtendedDataLength, family: family)
                }
            } else if advertisingData.isEmpty && !parameters.isConnectable {
                properties = [.scannable]
            } else {
                throw .scanResponseNeedsLegacyPDUs(advertisingDataLength: advertisingData.count, scanResponseLength: scanResponse.count)
            }
            let handle = parameters.advertisingHandle
            var commands: [any HCICommand] = [
                HCILESetExtendedAdvertisingParameters(advertisingHandle: handle, advertisingEventProperties: properties,
                                                      primaryAdvertisingIntervalMin: parameters.intervalMin,
                                                      primaryAdvertisingIntervalMax: parameters.intervalMax,
                                                      ownAddressType: parameters.ownAddressType),
            ]
            if parameters.ownAddressType == .random, let address = parameters.randomAddress {
                commands.append(HCILESetAdvertisingSetRandomAddress(advertisingHandle: handle, randomAddress: address))
            }
            if !properties.contains(.scannable) || properties.contains(.legacy) || !advertisingData.isEmpty {
                for (operation, fragment) in fragments(of: advertisingData) {
                    commands.append(HCILESetExtendedAdvertisingData(advertisingHandle: handle, operation: operation,
                                                                    advertisingData: fragment))
                }
            }
            if properties.contains(.scannable) {
                for (operation, fragment) in fragments(of: scanResponse) {
                    commands.append(HCILESetExtendedScanResponseData(advertisingHandle: handle, operation: operation,
                                                                     scanResponseData: fragment))
                }
            }
            commands.append(enableCommand(family: .extended, handle: handle, enable: true))
            return commands
        }
    }

    /// `data` cut into the fragments of HCI_LE_Set_Extended_Advertising_Data (Vol 4, Part E,
    /// 7.8.54): one Complete (0x03) operation when it fits 251 octets (empty data included);
    /// otherwise a First fragment (0x01), Intermediate fragments (0x00) and a Last fragment
    /// (0x02), each of 251 octets but the last.
    public static func fragments(of data: [UInt8]) -> [(LEAdvertisingDataOperation, [UInt8])] {
        guard data.count > maximumFragmentLength else { return [(.complete, data)] }
        var out: [(LEAdvertisingDataOperation, [UInt8])] = []
        var start = 0
        while start < data.count {
            let end = min(start + maximumFragmentLength, data.count)
            let operation: LEAdvertisingDataOperation = start == 0 ? .firstFragment
                : (end == data.count ? .lastFragment : .intermediateFragment)
            out.append((operation, Array(data[start..<end])))
            start = end
        }
        return out
    }

    private static func encode(_ structures: [ADStructure], _ payload: LEAdvertiserError.Payload) throws(LEAdvertiserError) -> [UInt8] {
        do {
            return try AdvertisingData(structures: structures).bytes
        } catch {
            throw .encoding(payload, error)
        }
    }

    private static func enableCommand(family: LECommandFamily, handle: UInt8, enable: Bool) -> any HCICommand {
        switch family {
        case .legacy: return HCILESetAdvertisingEnable(enable: enable)
        case .extended:
            return HCILESetExtendedAdvertisingEnable(enable: enable ? 1 : 0,
                                                     sets: [.init(advertisingHandle: handle)])
        }
    }

    /// Sets up and enables advertising.
    ///
    /// A ``stop()`` that runs while this call is still setting up wins: the remaining commands
    /// are not sent (when the enable was already on its way, advertising is disabled again after
    /// it), and this call returns with ``isStarted`` false.
    ///
    /// - Throws: the errors of ``commands(for:)`` before anything is sent;
    ///   ``LEAdvertiserError/alreadyAdvertising``; ``LEAdvertiserError/command(_:)`` when the
    ///   controller refuses a command (the remaining ones are not sent), or with
    ///   ``HCICommandError/cancelled(opcode:)`` when the calling task is cancelled before the
    ///   enable goes out. Once it has gone out, the call waits for its answer even when
    ///   cancelled, so that the host knows whether the controller advertises.
    public func start(_ parameters: LEAdvertisingParameters) async throws(LEAdvertiserError) {
        guard self.parameters == nil else { throw .alreadyAdvertising }
        let commands = try commands(for: parameters)
        self.parameters = parameters
        generation &+= 1
        resetsAtStart = flow.controllerResets
        let current = generation
        // Before enabling, so no connection is missed. A non-connectable set takes no event: its
        // route only ends, with the transport or the controller's reset.
        let selector: HCIEventSelector = parameters.isConnectable
            ? [.event(.disconnectionComplete), .leMeta(.connectionComplete), .leMeta(.enhancedConnectionComplete),
               .leMeta(.enhancedConnectionCompleteV2), .leMeta(.advertisingSetTerminated)]
            : []
        let events = await flow.events(selector, label: "advertiser")
        guard generation == current else { return }   // stopped meanwhile: nothing sent yet
        monitor = Task { [weak self] in
            for await delivery in events {
                // Read as the connection manager reads them (octets after the last parameter
                // left out), so both agree on which links formed and ended.
                guard case .packet(let eventPacket) = delivery,
                      let event = try? HCIEvent.decodingPastTrailingOctets(eventPacket).event else { continue }
                await self?.observe(event)
            }
            await self?.routeEnded(generation: current)
        }
        do throws(HCICommandError) {
            for (index, command) in commands.enumerated() {
                // Stopped meanwhile: stop() has sent its disable, which must stay the last word.
                guard generation == current else { return }
                guard index == commands.count - 1 else {
                    try await flow.send(command)
                    continue
                }
                // The enable: not begun for a cancelled caller, and once begun followed to its
                // answer, so that the host knows whether the controller advertises.
                if Task.isCancelled { throw HCICommandError.cancelled(opcode: type(of: command).opcode) }
                // Marked before the enable goes out, so a connection that follows at once is seen.
                controllerAdvertising = true
                try await flow.sendIgnoringCancellation(command)
            }
        } catch {
            guard generation == current else { throw .command(error) }   // a stop() already reset the state
            stopMonitor()
            controllerAdvertising = false
            self.parameters = nil
            throw .command(error)
        }
        if generation != current, self.parameters == nil {
            // stop() ran while the enable was on its way, and its disable may have reached the
            // controller first: disable once more, after this enable (stop() reports its own
            // errors). Not when a new start() owns the advertising already.
            _ = try? await flow.sendIgnoringCancellation(Self.enableCommand(family: capabilities.commandFamily,
                                                                          handle: parameters.advertisingHandle, enable: false))
        }
    }

    /// Disables advertising and stops re-advertising. Does nothing when not started. The
    /// disable is sent even when the calling task is cancelled.
    ///
    /// - Throws: ``LEAdvertiserError/command(_:)`` when the controller refuses to stop.
    public func stop() async throws(LEAdvertiserError) {
        guard let parameters else { return }
        self.parameters = nil
        generation &+= 1
        stopMonitor()
        controllerAdvertising = false
        do {
            // Beyond the caller's cancellation: the host has stopped, so must the controller.
            try await flow.sendIgnoringCancellation(Self.enableCommand(family: capabilities.commandFamily,
                                                                       handle: parameters.advertisingHandle, enable: false))
        } catch {
            throw .command(error)
        }
    }

    /// The route ended without ``stop()``: the transport closed, or the controller was reset
    /// (``HCICommandFlow/controllerReset()``; HCI_Reset ends advertising, Core v5.4, Vol 4,
    /// Part E, 7.3.2). The advertising is over: nothing is sent, and a ``start(_:)`` still
    /// setting up sends no more commands.
    private func routeEnded(generation ended: UInt64) {
        guard ended == generation else { return }
        parameters = nil
        generation &+= 1
        monitor = nil
        controllerAdvertising = false
        connections = []
        foreignConnections = []
    }

    private func stopMonitor() {
        monitor?.cancel()
        monitor = nil
        connections = []
        foreignConnections = []
    }

    private func observe(_ event: HCIEvent) async {
        // An event taken before the controller's reset tells of the lost state: nothing follows.
        guard let parameters, flow.controllerResets == resetsAtStart else { return }
        switch event {
        case .leMeta(let meta):
            if case .advertisingSetTerminated(let terminated) = meta {
                if setTerminated(terminated, ownHandle: parameters.advertisingHandle), parameters.readvertiseAfterConnection {
                    await advertiseAgain(parameters)
                }
                return
            }
            let connection: (status: HCIStatus, handle: UInt16, role: LERole, advertisingHandle: UInt8?)
            switch meta {
            case .connectionComplete(let e): connection = (e.status, e.connectionHandle, e.role, nil)
            case .enhancedConnectionComplete(let e): connection = (e.status, e.connectionHandle, e.role, nil)
            case .enhancedConnectionCompleteV2(let e):
                connection = (e.connection.status, e.connection.connectionHandle, e.connection.role,
                              capabilities.commandFamily == .extended ? e.advertisingHandle : nil)
            default: return
            }
            guard controllerAdvertising, connection.status.isSuccess, connection.role == .peripheral,
                  !connections.contains(connection.handle),     // LE Advertising Set Terminated came first
                  connection.advertisingHandle == nil || connection.advertisingHandle == parameters.advertisingHandle,
                  foreignConnections.remove(connection.handle) == nil
            else { return }
            controllerAdvertising = false
            connections.insert(connection.handle)
            if parameters.readvertiseAfterConnection { await advertiseAgain(parameters) }
        case .disconnectionComplete(let e):
            foreignConnections.remove(e.connectionHandle)
            guard e.status.isSuccess, connections.remove(e.connectionHandle) != nil, !controllerAdvertising,
                  parameters.readvertiseAfterDisconnection
            else { return }
            await advertiseAgain(parameters)
        default:
            return
        }
    }

    /// Enables the advertising again after a connection stopped it; an error is kept in
    /// ``readvertisingErrors``.
    private func advertiseAgain(_ parameters: LEAdvertisingParameters) async {
        // A connection announces itself twice with the extended commands (its connection event and
        // LE Advertising Set Terminated): the second must not enable again while the first does.
        guard !controllerAdvertising, !isEnablingAgain, flow.controllerResets == resetsAtStart else { return }
        isEnablingAgain = true
        defer { isEnablingAgain = false }
        do {
            try await flow.send(Self.enableCommand(family: capabilities.commandFamily, handle: parameters.advertisingHandle, enable: true))
            if self.parameters != nil { controllerAdvertising = true }
        } catch {
            readvertiseErrors.append(.command(error))
            if readvertiseErrors.count > Self.keptReadvertisingErrors { readvertiseErrors.removeFirst() }
        }
    }

    /// An extended advertising set stopped (Vol 4, Part E, 7.7.65.18). With Status 0x00 it names
    /// the connection made from it, which settles whose a peripheral connection is, whichever
    /// of this event and the connection's own event comes first.
    ///
    /// - Returns: whether it announced a connection from this set not known before (its
    ///   connection event, coming first, may have recorded it already).
    private func setTerminated(_ event: LEMetaEvent.AdvertisingSetTerminated, ownHandle: UInt8) -> Bool {
        if event.advertisingHandle == ownHandle {
            if event.status.isSuccess, !connections.insert(event.connectionHandle).inserted { return false }
            controllerAdvertising = false
            return event.status.isSuccess
        }
        if event.status.isSuccess {
            // Another set's connection: not ours, even if taken for ours already.
            if connections.remove(event.connectionHandle) != nil {
                controllerAdvertising = true
            } else {
                foreignConnections.insert(event.connectionHandle)
            }
        }
        return false
    }
}
