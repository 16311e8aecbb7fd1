import BLECore
import HCI

/// Legacy and extended advertising commands (Core v5.4, Vol 4, Part E, 7.8.5-7.8.9 and
/// 7.8.52-7.8.57), with the spec's checks and statuses.
extension RadioWorld {
    /// The longest Duration of high duty cycle directed advertising: 1.28 s (Vol 6, Part B, 4.4.2.4.3).
    static let highDutyCycleTimeout: Micros = 1_280_000

    // MARK: Legacy

    func setAdvertisingParameters(_ c: ControllerModel, _ command: HCILESetAdvertisingParameters) {
        let opcode = HCIOpcode.leSetAdvertisingParameters
        guard c.advertisingSets[ControllerModel.legacySetKey]?.enabled != true else {
            return completeStatus(c, opcode, .commandDisallowed)
        }
        let type = command.advertisingType
        let intervalsValid = type == .advDirectIndHighDutyCycle
            || ((0x0020...0x4000).contains(command.advertisingIntervalMin.rawValue)
                && (0x0020...0x4000).contains(command.advertisingIntervalMax.rawValue)
                && command.advertisingIntervalMin <= command.advertisingIntervalMax)
        guard type.rawValue <= 0x04, intervalsValid, command.ownAddressType.rawValue <= 0x03,
              command.peerAddressType.rawValue <= 0x01,
              (1...7).contains(command.advertisingChannelMap.rawValue), command.advertisingFilterPolicy.rawValue <= 0x03
        else { return completeStatus(c, opcode, .invalidHCICommandParameters) }
        c.legacyParameters = command
        completeStatus(c, opcode, .success)
    }

    /// The extended event properties of a legacy advertising type (Vol 4, Part E, 7.8.53, table).
    static func properties(of type: LEAdvertisingType) -> LEAdvertisingEventProperties {
        switch type {
        case .advInd: return .legacyAdvInd
        case .advDirectIndHighDutyCycle: return [.legacy, .connectable, .directed, .highDutyCycleDirected]
        case .advScanInd: return [.legacy, .scannable]
        case .advDirectIndLowDutyCycle: return [.legacy, .connectable, .directed]
        default: return .legacyAdvNonconnInd
        }
    }

    func setAdvertisingEnable(_ c: ControllerModel, _ command: HCILESetAdvertisingEnable) {
        let opcode = HCIOpcode.leSetAdvertisingEnable
        let key = ControllerModel.legacySetKey
        switch command.advertisingEnable {
        case 0:
            disableAdvertising(c, key: key)
            completeStatus(c, opcode, .success)
        case 1:
            let p = c.legacyParameters
            guard c.ownAddress(p.ownAddressType, random: c.randomAddress) != nil else {
                return completeStatus(c, opcode, .invalidHCICommandParameters)
            }
            if c.advertisingSets[key]?.enabled == true { return completeStatus(c, opcode, .success) }
            let highDuty = p.advertisingType == .advDirectIndHighDutyCycle
            var set = AdvertisingSet(handle: 0, properties: Self.properties(of: p.advertisingType),
                                     interval: highDuty ? 3_750 : Micros(p.advertisingIntervalMin.microseconds),
                                     ownAddressType: p.ownAddressType, peerAddressType: p.peerAddressType,
                                     peerAddress: p.peerAddress, filterPolicy: p.advertisingFilterPolicy,
                                     sid: 0, txPower: 0, secondaryPHY: .le1M)
            set.data = c.legacyData
            set.scanResponse = c.legacyScanResponse
            set.generation = (c.advertisingSets[key]?.generation ?? 0) &+ 1
            c.advertisingSets[key] = set
            completeStatus(c, opcode, .success)
            startAdvertising(c, key: key, duration: highDuty ? Self.highDutyCycleTimeout : 0)
        default:
            completeStatus(c, opcode, .invalidHCICommandParameters)
        }
    }

    // MARK: Extended

    func setAdvertisingSetRandomAddress(_ c: ControllerModel, _ command: HCILESetAdvertisingSetRandomAddress) {
        let opcode = HCIOpcode.leSetAdvertisingSetRandomAddress
        guard command.advertisingHandle <= 0xEF else { return completeStatus(c, opcode, .invalidHCICommandParameters) }
        guard c.advertisingSets[Int(command.advertisingHandle)] != nil else {
            return completeStatus(c, opcode, .unknownAdvertisingIdentifier)
        }
        c.advertisingSets[Int(command.advertisingHandle)]?.randomAddress = command.randomAddress
        completeStatus(c, opcode, .success)
    }

    /// The most data connectable extended advertising carries: what fits one AUX_ADV_IND, 255
    /// octets of payload less the extended header with AdvA and ADI (10 octets). Connectable
    /// advertising cannot chain (Vol 6, Part B, 2.3.4), so a set with more cannot be enabled.
    static let connectableExtendedDataLimit = 245

    /// The legacy event properties allowed with extended commands (Vol 4, Part E, 7.8.53).
    static let legacyPropertyValues: Set<UInt16> = [0x13, 0x15, 0x1D, 0x12, 0x10]

    func setExtendedAdvertisingParameters(_ c: ControllerModel, _ command: HCILESetExtendedAdvertisingParameters) {
        let opcode = HCIOpcode.leSetExtendedAdvertisingParameters
        func fail(_ status: HCIStatus) {
            complete(c, opcode, HCILESetExtendedAdvertisingParameters.ReturnParameters(status: status, selectedTXPower: 0))
        }
        let key = Int(command.advertisingHandle)
        let properties = command.advertisingEventProperties
        let existing = c.advertisingSets[key]
        guard command.advertisingHandle <= 0xEF else { return fail(.invalidHCICommandParameters) }
        guard existing?.enabled != true else { return fail(.commandDisallowed) }
        let extendedSets = c.advertisingSets.keys.filter { $0 != ControllerModel.legacySetKey }.count
        guard existing != nil || extendedSets < Int(c.configuration.numberOfAdvertisingSets) else {
            return fail(.memoryCapacityExceeded)
        }
        let legacy = properties.contains(.legacy)
        let highDutyLegacy = legacy && properties.contains(.highDutyCycleDirected)
        var valid = properties.rawValue & 0xFF80 == 0
            && command.ownAddressType.rawValue <= 0x03 && command.peerAddressType.rawValue <= 0x01
            && (1...7).contains(command.primaryAdvertisingChannelMap.rawValue)
            && command.advertisingFilterPolicy.rawValue <= 0x03 && command.advertisingSID <= 0x0F
            && command.scanRequestNotificationEnable <= 1
        if !highDutyLegacy {
            valid = valid && command.primaryAdvertisingIntervalMin.rawValue >= 0x20
                && command.primaryAdvertisingIntervalMin <= command.primaryAdvertisingIntervalMax
        }
        if legacy {
            valid = valid && Self.legacyPropertyValues.contains(properties.rawValue)
                && (existing?.data.count ?? 0) <= 31 && (existing?.scanResponse.count ?? 0) <= 31
        } else {
            // Extended PDUs: not both connectable and scannable, anonymous only when neither,
            // and high duty cycle only for legacy directed advertising.
            let connectable = properties.contains(.connectable), scannable = properties.contains(.scannable)
            valid = valid && !(connectable && scannable)
                && !(properties.contains(.anonymous) && (connectable || scannable))
                && !properties.contains(.highDutyCycleDirected)
        }
        guard valid else { return fail(.invalidHCICommandParameters) }
        // No LE Coded PHY on this controller (its LE features do not list it).
        guard command.primaryAdvertisingPHY == .le1M || command.primaryAdvertisingPHY == .leCoded else {
            return fail(.invalidHCICommandParameters)
        }
        if command.primaryAdvertisingPHY == .leCoded { return fail(.unsupportedFeatureOrParameterValue) }
        if !legacy {
            guard [LEPHY.le1M, .le2M, .leCoded].contains(command.secondaryAdvertisingPHY) else {
                return fail(.invalidHCICommandParameters)
            }
            if command.secondaryAdvertisingPHY == .leCoded { return fail(.unsupportedFeatureOrParameterValue) }
        }
        let txPower: Int8 = command.advertisingTXPower == 127 ? 0 : min(max(command.advertisingTXPower, -20), 10)
        var set = AdvertisingSet(handle: command.advertisingHandle, properties: properties,
                                 interval: highDutyLegacy ? 3_750 : Micros(command.primaryAdvertisingIntervalMin.microseconds),
                                 ownAddressType: command.ownAddressType, peerAddressType: command.peerAddressType,
                                 peerAddress: command.peerAddress, filterPolicy: command.advertisingFilterPolicy,
                                 sid: command.advertisingSID, txPower: txPower,
                                 secondaryPHY: legacy ? .le1M : command.secondaryAdvertisingPHY)
        if let existing {
            set.randomAddress = existing.randomAddress
            set.data = existing.data
            set.scanResponse = existing.scanResponse
            set.generation = existing.generation
        }
        c.advertisingSets[key] = set
        complete(c, opcode, HCILESetExtendedAdvertisingParameters.ReturnParameters(selectedTXPower: txPower))
    }

    /// LE Set Extended Advertising Data or Scan Response Data: the fragment operations, the
    /// set's capacity and what its type allows (7.8.54, 7.8.55).
    func setExtendedData(_ c: ControllerModel, handle: UInt8, operation: LEAdvertisingDataOperation,
                         data: [UInt8], scanResponse: Bool) -> HCIStatus {
        guard handle <= 0xEF, operation.rawValue <= 0x04 else { return .invalidHCICommandParameters }
        let key = Int(handle)
        guard var set = c.advertisingSets[key] else { return .unknownAdvertisingIdentifier }
        if set.isLegacyPDU {
            // Legacy PDUs: one complete payload of at most 31 octets, and only where the PDU has one.
            guard operation == .complete, data.count <= 31 else { return .invalidHCICommandParameters }
            if scanResponse, !set.isScannable, !data.isEmpty { return .invalidHCICommandParameters }
            if !scanResponse, set.isDirected, !data.isEmpty { return .invalidHCICommandParameters }
        } else {
            // Extended scannable advertising carries no advertising data; only it has a scan response.
            if !scanResponse, set.isScannable, !data.isEmpty { return .invalidHCICommandParameters }
            if scanResponse, !set.isScannable, !data.isEmpty { return .invalidHCICommandParameters }
            if operation == .unchangedData {
                guard !scanResponse, data.isEmpty, set.enabled else { return .invalidHCICommandParameters }
                return .success
            }
            if set.enabled, operation != .complete { return .commandDisallowed }
            if set.enabled, scanResponse, set.isScannable, data.isEmpty { return .commandDisallowed }
        }
        let partial = scanResponse ? set.partialScanResponse : set.partialData
        var assembled: [UInt8]
        switch operation {
        case .intermediateFragment, .lastFragment:
            guard let partial else { return .invalidHCICommandParameters }
            assembled = partial + data
        default:
            assembled = data
        }
        if set.enabled, !scanResponse, !set.isLegacyPDU, set.isConnectable, assembled.count > Self.connectableExtendedDataLimit {
            return .invalidHCICommandParameters
        }
        guard assembled.count <= Int(c.configuration.maximumAdvertisingDataLength) else {
            if scanResponse { set.partialScanResponse = nil } else { set.partialData = nil }
            c.advertisingSets[key] = set
            return .memoryCapacityExceeded
        }
        let finished = operation == .complete || operation == .lastFragment
        if scanResponse {
            set.partialScanResponse = finished ? nil : assembled
            if finished { set.scanResponse = assembled }
        } else {
            set.partialData = finished ? nil : assembled
            if finished { set.data = assembled }
        }
        c.advertisingSets[key] = set
        return .success
    }

    func setExtendedAdvertisingEnable(_ c: ControllerModel, _ command: HCILESetExtendedAdvertisingEnable) {
        let opcode = HCIOpcode.leSetExtendedAdvertisingEnable
        guard command.enable <= 1 else { return completeStatus(c, opcode, .invalidHCICommandParameters) }
        if command.sets.isEmpty {
            guard command.enable == 0 else { return completeStatus(c, opcode, .invalidHCICommandParameters) }
            for key in c.advertisingSets.keys where key != ControllerModel.legacySetKey { disableAdvertising(c, key: key) }
            return completeStatus(c, opcode, .success)
        }
        let handles = command.sets.map(\.advertisingHandle)
        guard Set(handles).count == handles.count else { return completeStatus(c, opcode, .invalidHCICommandParameters) }
        // Every set is checked before any changes (the command succeeds or fails as a whole).
        for entry in command.sets {
            guard let set = c.advertisingSets[Int(entry.advertisingHandle)] else {
                return completeStatus(c, opcode, .unknownAdvertisingIdentifier)
            }
            guard command.enable == 1 else { continue }
            guard c.ownAddress(set.ownAddressType, random: set.randomAddress) != nil else {
                return completeStatus(c, opcode, .invalidHCICommandParameters)
            }
            if !set.isLegacyPDU, set.isScannable, set.scanResponse.isEmpty { return completeStatus(c, opcode, .commandDisallowed) }
            if !set.isLegacyPDU, set.isConnectable, set.data.count > Self.connectableExtendedDataLimit {
                return completeStatus(c, opcode, .invalidHCICommandParameters)
            }
            if set.partialData != nil || set.partialScanResponse != nil { return completeStatus(c, opcode, .commandDisallowed) }
            let highDuty = set.isLegacyPDU && set.properties.contains(.highDutyCycleDirected)
            if highDuty, entry.duration.rawValue == 0 || Micros(entry.duration.microseconds) > Self.highDutyCycleTimeout {
                return completeStatus(c, opcode, .invalidHCICommandParameters)
            }
        }
        completeStatus(c, opcode, .success)
        for entry in command.sets {
            let key = Int(entry.advertisingHandle)
            if command.enable == 0 {
                disableAdvertising(c, key: key)
            } else {
                c.advertisingSets[key]?.maxEvents = Int(entry.maxExtendedAdvertisingEvents)
                disableAdvertising(c, key: key)
                startAdvertising(c, key: key, duration: Micros(entry.duration.microseconds))
            }
        }
    }

    /// LE Remove Advertising Set (`handle`) or LE Clear Advertising Sets (nil): Command
    /// Disallowed while a set to remove is enabled (7.8.59, 7.8.60).
    func removeAdvertisingSets(_ c: ControllerModel, handle: UInt8?) -> HCIStatus {
        let keys = handle.map { [Int($0)] } ?? c.advertisingSets.keys.filter { $0 != ControllerModel.legacySetKey }
        if let handle, c.advertisingSets[Int(handle)] == nil { return .unknownAdvertisingIdentifier }
        guard keys.allSatisfy({ c.advertisingSets[$0]?.enabled != true }) else { return .commandDisallowed }
        for key in keys { c.advertisingSets[key] = nil }
        return .success
    }

    // MARK: Starting and stopping

    /// Enables set `key` and schedules its first advertising event after advDelay; with a
    /// `duration` (µs), schedules its end.
    func startAdvertising(_ c: ControllerModel, key: Int, duration: Micros) {
        guard var set = c.advertisingSets[key] else { return }
        set.enabled = true
        set.generation &+= 1
        set.eventsSent = 0
        c.advertisingSets[key] = set
        schedule(at: now + advDelay(), .advertising(controller: c.index, set: key, generation: set.generation))
        if duration > 0 {
            schedule(at: now + duration, .advertisingTimeout(controller: c.index, set: key, generation: set.generation))
        }
    }

    func disableAdvertising(_ c: ControllerModel, key: Int) {
        guard c.advertisingSets[key]?.enabled == true else { return }
        c.advertisingSets[key]?.enabled = false
        c.advertisingSets[key]?.generation &+= 1
    }

    /// advDelay: a pseudo-random 0-10 ms added to every advertising interval (Vol 6, Part B, 4.4.2.2.1).
    func advDelay() -> Micros { Micros(random(upTo: 10_000)) }

    /// A set's Duration ran out: Advertising Set Terminated with Advertising Timeout (0x3C), or,
    /// for legacy high duty cycle directed advertising, LE Connection Complete with it (7.8.9).
    func advertisingTimedOut(_ c: ControllerModel, set key: Int, generation: UInt64) {
        guard let set = c.advertisingSets[key], set.enabled, set.generation == generation else { return }
        disableAdvertising(c, key: key)
        if key == ControllerModel.legacySetKey {
            emitConnectionComplete(c, status: .advertisingTimeout, handle: 0, role: .peripheral, peer: nil, link: nil)
        } else {
            emit(LEMetaEvent.AdvertisingSetTerminated(status: .advertisingTimeout, advertisingHandle: set.handle, connectionHandle: 0,
                                                      numCompletedExtendedAdvertisingEvents: UInt8(min(set.eventsSent, 255))).packet, to: c)
        }
    }
}
