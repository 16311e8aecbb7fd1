import HCI

/// Legacy and extended scanning commands (Core v5.4, Vol 4, Part E, 7.8.10, 7.8.11, 7.8.64,
/// 7.8.65).
extension RadioWorld {
    func setScanParameters(_ c: ControllerModel, _ command: HCILESetScanParameters) {
        let opcode = HCIOpcode.leSetScanParameters
        guard !c.scan.enabled else { return completeStatus(c, opcode, .commandDisallowed) }
        let interval = command.leScanInterval.rawValue, window = command.leScanWindow.rawValue
        guard command.leScanType.rawValue <= 1, (0x0004...0x4000).contains(interval), (0x0004...interval).contains(window),
              command.ownAddressType.rawValue <= 0x03, command.scanningFilterPolicy.rawValue <= 0x03
        else { return completeStatus(c, opcode, .invalidHCICommandParameters) }
        // Policies 0x02 and 0x03 need Extended Scanner Filter Policies, which this controller lacks.
        guard command.scanningFilterPolicy.rawValue <= 0x01 else {
            return completeStatus(c, opcode, .unsupportedFeatureOrParameterValue)
        }
        setScan(c, active: command.leScanType == .active, interval: command.leScanInterval, window: command.leScanWindow,
                ownAddressType: command.ownAddressType, filterPolicy: command.scanningFilterPolicy)
        completeStatus(c, opcode, .success)
    }

    func setScanEnable(_ c: ControllerModel, _ command: HCILESetScanEnable) {
        let opcode = HCIOpcode.leSetScanEnable
        guard command.leScanEnable <= 1, command.filterDuplicates <= 1 else {
            return completeStatus(c, opcode, .invalidHCICommandParameters)
        }
        if command.leScanEnable == 0 {
            stopScanning(c)
            return completeStatus(c, opcode, .success)
        }
        guard c.ownAddress(c.scan.ownAddressType, random: c.randomAddress) != nil else {
            return completeStatus(c, opcode, .invalidHCICommandParameters)
        }
        startScanning(c, filterDuplicates: command.filterDuplicates == 1, duration: 0)
        completeStatus(c, opcode, .success)
    }

    func setExtendedScanParameters(_ c: ControllerModel, _ command: HCILESetExtendedScanParameters) {
        let opcode = HCIOpcode.leSetExtendedScanParameters
        guard !c.scan.enabled else { return completeStatus(c, opcode, .commandDisallowed) }
        let phys = command.scanningPHYs.rawValue
        guard phys != 0, phys & ~0b101 == 0, command.ownAddressType.rawValue <= 0x03,
              command.scanningFilterPolicy.rawValue <= 0x03
        else { return completeStatus(c, opcode, .invalidHCICommandParameters) }
        for parameters in command.phyParameters {
            let interval = parameters.scanInterval.rawValue
            guard parameters.scanType.rawValue <= 1, interval >= 0x0004, (0x0004...interval).contains(parameters.scanWindow.rawValue) else {
                return completeStatus(c, opcode, .invalidHCICommandParameters)
            }
        }
        guard phys & 0b100 == 0, command.scanningFilterPolicy.rawValue <= 0x01,
              let le1M = command.parameters(for: .le1M)
        else { return completeStatus(c, opcode, .unsupportedFeatureOrParameterValue) }
        setScan(c, active: le1M.scanType == .active, interval: le1M.scanInterval, window: le1M.scanWindow,
                ownAddressType: command.ownAddressType, filterPolicy: command.scanningFilterPolicy)
        completeStatus(c, opcode, .success)
    }

    /// The scan settings both families' parameter commands set (legacy 7.8.10, extended 7.8.64).
    private func setScan(_ c: ControllerModel, active: Bool, interval: LESlotDuration, window: LESlotDuration,
                         ownAddressType: LEOwnAddressType, filterPolicy: LEScanningFilterPolicy) {
        c.scan.active = active
        c.scan.interval = Micros(interval.microseconds)
        c.scan.window = Micros(window.microseconds)
        c.scan.ownAddressType = ownAddressType
        c.scan.filterPolicy = filterPolicy
    }

    func setExtendedScanEnable(_ c: ControllerModel, _ command: HCILESetExtendedScanEnable) {
        let opcode = HCIOpcode.leSetExtendedScanEnable
        guard command.enable <= 1, command.filterDuplicates <= 2 else {
            return completeStatus(c, opcode, .invalidHCICommandParameters)
        }
        if command.enable == 0 {
            stopScanning(c)
            return completeStatus(c, opcode, .success)
        }
        if command.period.rawValue != 0 {
            guard command.duration.rawValue != 0,
                  command.duration.microseconds < command.period.microseconds
            else { return completeStatus(c, opcode, .invalidHCICommandParameters) }
            // Periodic scanning (Period non-zero) is not implemented.
            return completeStatus(c, opcode, .unsupportedFeatureOrParameterValue)
        }
        guard c.ownAddress(c.scan.ownAddressType, random: c.randomAddress) != nil else {
            return completeStatus(c, opcode, .invalidHCICommandParameters)
        }
        startScanning(c, filterDuplicates: command.filterDuplicates != 0, duration: Micros(command.duration.microseconds))
        completeStatus(c, opcode, .success)
    }

    /// Starts scanning, or, when it already runs, takes the new Filter_Duplicates (7.8.11) and,
    /// with a Duration, restarts its timer (7.8.65). Starting clears the duplicate filter.
    func startScanning(_ c: ControllerModel, filterDuplicates: Bool, duration: Micros) {
        if !c.scan.enabled {
            c.scan.enabled = true
            c.scan.startedAt = now
            c.scan.seen = []
        }
        c.scan.filterDuplicates = filterDuplicates
        c.scanDurationGeneration &+= 1
        if duration > 0 {
            schedule(at: now + duration, .scanTimeout(controller: c.index, generation: c.scanDurationGeneration))
        }
    }

    func stopScanning(_ c: ControllerModel) {
        c.scan.enabled = false
        c.scan.seen = []
        c.scanDurationGeneration &+= 1
    }

    /// The extended scan's Duration ran out: scanning stops and the host hears LE Scan Timeout (7.7.65.17).
    func scanTimedOut(_ c: ControllerModel, generation: UInt64) {
        guard c.scan.enabled, c.scanDurationGeneration == generation else { return }
        stopScanning(c)
        emit(LEMetaEvent.ScanTimeout().packet, to: c)
    }
}
