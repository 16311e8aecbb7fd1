import BLECore
import HCI

/// Scans for LE advertisers through an ``HCICommandFlow``, with the legacy or the extended
/// commands as the controller's ``LEControllerCapabilities/commandFamily`` says (never both).
///
/// - Legacy: HCI_LE_Set_Scan_Parameters, then HCI_LE_Set_Scan_Enable (Vol 4, Part E, 7.8.10,
///   7.8.11); reports arrive in HCI_LE_Advertising_Report (7.7.65.2).
/// - Extended: HCI_LE_Set_Extended_Scan_Parameters on the LE 1M PHY, then
///   HCI_LE_Set_Extended_Scan_Enable with no duration or period (7.8.64, 7.8.65); reports arrive
///   in HCI_LE_Extended_Advertising_Report (7.7.65.13), fragments reassembled.
///
/// The controller must deliver those events: in kernel mode the kernel sets the event masks; in
/// host mode the host sets bit 61 (LE Meta) of the Event Mask and the report bits of the LE
/// Event Mask first.
///
/// ```swift
/// let scanner = LEScanner(flow: flow, capabilities: capabilities)
/// for await discovery in try await scanner.start(LEScanParameters(scanType: .active)) {
///     print(discovery.address, discovery.rssi ?? 0, discovery.localName ?? "")
/// }
/// ```
public actor LEScanner {
    private let flow: HCICommandFlow
    /// The controller's capabilities, whose family chooses the commands.
    public let capabilities: LEControllerCapabilities
    private var consumer: Task<Void, Never>?
    private var discoveries: AsyncStream<LEDiscovery>.Continuation?
    private var generation: UInt64 = 0

    /// A scanner over `flow` for a controller with `capabilities`.
    public init(flow: HCICommandFlow, capabilities: LEControllerCapabilities) {
        self.flow = flow
        self.capabilities = capabilities
    }

    /// Whether a scan started by this scanner runs.
    public var isScanning: Bool { discoveries != nil }

    /// Sets the scan parameters, enables scanning, and returns the discoveries as they come.
    /// The stream finishes on ``stop()`` or when the transport closes.
    ///
    /// - Throws: the validation errors of ``LEScanParameters/validate(for:)``;
    ///   ``LEScannerError/alreadyScanning``; ``LEScannerError/command(_:)`` when the controller
    ///   refuses a command (nothing is left enabled by this call then).
    public func start(_ parameters: LEScanParameters = LEScanParameters()) async throws(LEScannerError) -> AsyncStream<LEDiscovery> {
        let family = capabilities.commandFamily
        try parameters.validate(for: family)
        guard discoveries == nil else { throw .alreadyScanning }
        let (stream, continuation) = AsyncStream.makeStream(of: LEDiscovery.self)
        discoveries = continuation
        generation &+= 1
        let packets = await flow.packets()   // before enabling, so no report is missed
        do {
            switch family {
            case .legacy:
                try await flow.send(HCILESetScanParameters(leScanType: parameters.scanType, leScanInterval: parameters.interval,
                                                           leScanWindow: parameters.window, ownAddressType: parameters.ownAddressType))
                try await flow.send(HCILESetScanEnable(enable: true, filterDuplicates: parameters.filterDuplicates))
            case .extended:
                let phy = HCILESetExtendedScanParameters.PHYParameters(scanType: parameters.scanType, scanInterval: parameters.interval,
                                                                       scanWindow: parameters.window)
                try await flow.send(HCILESetExtendedScanParameters(ownAddressType: parameters.ownAddressType, le1M: phy))
                try await flow.send(HCILESetExtendedScanEnable(enable: 1, filterDuplicates: parameters.filterDuplicates ? 1 : 0))
            }
        } catch {
            discoveries = nil
            continuation.finish()
            throw .command(error)
        }
        let current = generation
        consumer = Task { [weak self] in
            var accumulator = AdvertisementAccumulator()
            var duplicates = LEDuplicateFilter()
            for await packet in packets {
                guard case .event(let eventPacket) = packet, eventPacket.code == .leMeta,
                      case .leMeta(let meta)? = try? HCIEvent(packet: eventPacket) else { continue }
                var updates: [AdvertisementAccumulator.Update] = []
                switch meta {
                case .advertisingReport(let event): updates = event.reports.map { accumulator.add($0) }
                case .extendedAdvertisingReport(let event): updates = event.reports.map { accumulator.add($0) }
                default: continue
                }
                for update in updates {
                    guard update.disposition == .complete || update.disposition == .truncated,
                          let advertisement = update.advertisement, parameters.matches(advertisement),
                          !parameters.filterDuplicates || duplicates.admit(advertisement) else { continue }
                    continuation.yield(LEDiscovery(advertisement: advertisement))
                }
            }
            await self?.ended(generation: current)
        }
        return stream
    }

    /// The transport closed: the scan is over.
    private func ended(generation ended: UInt64) {
        guard ended == generation else { return }
        discoveries?.finish()
        discoveries = nil
        consumer = nil
    }

    /// Disables scanning and finishes the stream of discoveries. Does nothing when no scan runs.
    ///
    /// - Throws: ``LEScannerError/command(_:)`` when the controller refuses to stop (the stream
    ///   is finished all the same).
    public func stop() async throws(LEScannerError) {
        guard let continuation = discoveries else { return }
        discoveries = nil
        generation &+= 1
        consumer?.cancel()
        consumer = nil
        continuation.finish()
        do {
            switch capabilities.commandFamily {
            case .legacy: try await flow.send(HCILESetScanEnable(enable: false))
            case .extended: try await flow.send(HCILESetExtendedScanEnable(enable: 0, filterDuplicates: 0))
            }
        } catch {
            throw .command(error)
        }
    }
}
