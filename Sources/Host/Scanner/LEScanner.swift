import BLECore
import HCI

/// Scans for LE advertisers through an ``HCICommandFlow``, with the legacy or the extended
/// commands as the controller's ``LEControllerCapabilities/commandFamily`` says (never both).
///
/// - Legacy: HCI_LE_Set_Scan_Parameters, then HCI_LE_Set_Scan_Enable (Vol 4, Part E, 7.8.10,
///   7.8.11); reports arrive in HCI_LE_Advertising_Report (7.7.65.2).
/// - Extended: HCI_LE_Set_Extended_Scan_Parameters on the LE 1M PHY, then
///   HCI_LE_Set_Extended_Scan_Enable with no duration or period (7.8.64, 7.8.65); reports arrive
///   in HCI_LE_Extended_Advertising_Report (7.7.65.13), fragments reassembled by
///   ``AdvertisementAccumulator`` (``AdvertisingChainReassembler``: bounded in size, in fragments,
///   and in time, each report timed as the scanner takes it from the flow). A chain cut short is
///   discovered as it stands, truncated.
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
    /// When a report event is taken from the flow, on a clock that only moves forward: the
    /// accumulator's bound on the wait between two fragments of one chain.
    private let now: @Sendable () -> Duration

    /// A scanner over `flow` for a controller with `capabilities`.
    public init(flow: HCICommandFlow, capabilities: LEControllerCapabilities) {
        self.init(flow: flow, capabilities: capabilities, now: { Self.clockOrigin.duration(to: .now) })
    }

    /// A scanner whose report times come from `now` (tests step it by hand).
    init(flow: HCICommandFlow, capabilities: LEControllerCapabilities, now: @escaping @Sendable () -> Duration) {
        self.flow = flow
        self.capabilities = capabilities
        self.now = now
    }

    /// The origin of the default report times.
    private static let clockOrigin = ContinuousClock.now

    /// Whether a scan started by this scanner runs.
    public var isScanning: Bool { discoveries != nil }

    /// Sets the scan parameters, enables scanning, and returns the discoveries as they come.
    /// The stream finishes on ``stop()``, when the transport closes, or when the controller is
    /// reset (``HCICommandFlow/controllerReset()``, which ``HostStack/restart()`` calls;
    /// HCI_Reset ends scanning, Core v5.4, Vol 4, Part E, 7.3.2).
    ///
    /// A ``stop()`` that runs while this call is still setting up wins: scanning is not enabled
    /// after it (or, when the enable was already on its way, it is disabled again), and the
    /// stream comes back finished.
    ///
    /// - Throws: the validation errors of ``LEScanParameters/validate(for:)``;
    ///   ``LEScannerError/alreadyScanning``; ``LEScannerError/command(_:)`` when the controller
    ///   refuses a command (nothing is left enabled by this call then), or with
    ///   ``HCICommandError/cancelled(opcode:)`` when the calling task is cancelled before the
    ///   enable goes out. Once it has gone out, the call waits for its answer even when
    ///   cancelled, so that the host knows whether the controller scans.
    public func start(_ parameters: LEScanParameters = LEScanParameters()) async throws(LEScannerError) -> AsyncStream<LEDiscovery> {
        let family = capabilities.commandFamily
        try parameters.validate(for: family)
        guard discoveries == nil else { throw .alreadyScanning }
        let (stream, continuation) = AsyncStream.makeStream(of: LEDiscovery.self)
        discoveries = continuation
        generation &+= 1
        // Every await below lets stop() (or stop() and another start()) run; `current` tells
        // whether this call still owns the scan.
        let current = generation
        // Before enabling, so no report is missed. A crowded room gives hundreds of reports a
        // second: the queue holds a few seconds of them for a reader that falls behind.
        let reports = await flow.events([.leMeta(.advertisingReport), .leMeta(.extendedAdvertisingReport)],
                                        capacity: Self.reportCapacity, label: "scanner")
        let enable: any HCICommand
        do throws(HCICommandError) {
            switch family {
            case .legacy:
                try await flow.send(HCILESetScanParameters(leScanType: parameters.scanType, leScanInterval: parameters.interval,
                                                           leScanWindow: parameters.window, ownAddressType: parameters.ownAddressType))
                enable = HCILESetScanEnable(enable: true, filterDuplicates: parameters.filterDuplicates)
            case .extended:
                let phy = HCILESetExtendedScanParameters.PHYParameters(scanType: parameters.scanType, scanInterval: parameters.interval,
                                                                       scanWindow: parameters.window)
                try await flow.send(HCILESetExtendedScanParameters(ownAddressType: parameters.ownAddressType, le1M: phy))
                enable = HCILESetExtendedScanEnable(enable: 1, filterDuplicates: parameters.filterDuplicates ? 1 : 0)
            }
            // Stopped meanwhile: stop() has sent its disable, which must stay the last word.
            guard generation == current else { return stream }
            // Not begun for a cancelled caller, and once begun followed to its answer, so that
            // the host knows whether the controller scans.
            if Task.isCancelled { throw HCICommandError.cancelled(opcode: type(of: enable).opcode) }
            try await flow.sendIgnoringCancellation(enable)
        } catch {
            continuation.finish()
            if generation == current { discoveries = nil }
            throw .command(error)
        }
        guard generation == current else {
            // stop() ran while the enable was on its way, and its disable may have reached the
            // controller first: disable once more, after this enable (stop() reports its own
            // errors). Not when a new start() owns the scan already.
            if discoveries == nil { _ = try? await flow.sendIgnoringCancellation(Self.disableCommand(capabilities.commandFamily)) }
            return stream
        }
        let now = self.now
        consumer = Task { [weak self] in
            var accumulator = AdvertisementAccumulator()
            var duplicates = LEDuplicateFilter()
            for await delivery in reports {
                // An overflow lost reports, not state: the next report of each advertiser is as good.
                guard case .packet(let eventPacket) = delivery, let subevent = eventPacket.leSubeventCode else { continue }
                // The reports that decode, also when a later one in the same event does not: one
                // bad report from the controller must not take the good ones with it.
                let fields = eventPacket.parameters.dropFirst()
                let time = now()
                var updates: [AdvertisementAccumulator.Update] = []
                switch subevent {
                case .advertisingReport:
                    updates = LEMetaEvent.AdvertisingReport.salvaging(fields).reports.map { accumulator.add($0, at: time) }
                case .extendedAdvertisingReport:
                    updates = LEMetaEvent.ExtendedAdvertisingReport.salvaging(fields).reports.map { accumulator.add($0, at: time) }
                default:
                    continue
                }
                for update in updates {
                    // Every change to a stored advertisement: a payload completed or truncated, or
                    // (with the report itself pending) a chain it cut short, stored truncated.
                    guard let advertisement = update.advertisement, parameters.matches(advertisement),
                          !parameters.filterDuplicates || duplicates.admit(advertisement) else { continue }
                    continuation.yield(LEDiscovery(advertisement: advertisement))
                }
            }
            await self?.ended(generation: current)
        }
        return stream
    }

    /// How many advertising report events the scanner's route holds: 1024.
    static let reportCapacity = 1024

    /// The route ended: the transport closed, or the controller was reset. The scan is over.
    private func ended(generation ended: UInt64) {
        guard ended == generation else { return }
        discoveries?.finish()
        discoveries = nil
        consumer = nil
    }

    /// Disables scanning and finishes the stream of discoveries. Does nothing when no scan runs.
    /// The disable is sent even when the calling task is cancelled (cleanup code stops scans).
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
            // Beyond the caller's cancellation: the host has stopped, so must the controller.
            try await flow.sendIgnoringCancellation(Self.disableCommand(capabilities.commandFamily))
        } catch {
            throw .command(error)
        }
    }

    /// HCI_LE_Set_Scan_Enable or HCI_LE_Set_Extended_Scan_Enable with scanning disabled (Vol 4,
    /// Part E, 7.8.11, 7.8.65; disabling scanning that is already disabled has no effect).
    private static func disableCommand(_ family: LECommandFamily) -> any HCICommand {
        switch family {
        case .legacy: return HCILESetScanEnable(enable: false)
        case .extended: return HCILESetExtendedScanEnable(enable: 0, filterDuplicates: 0)
        }
    }
}
