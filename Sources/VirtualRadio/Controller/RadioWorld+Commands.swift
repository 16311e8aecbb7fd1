import BLECore
import HCI

/// Command handling: every command gets exactly one answer, Command Complete or Command Status
/// (Core v5.4, Vol 4, Part E, 4.4 and 4.5); unknown opcodes get Unknown HCI Command (0x01),
/// malformed parameters Invalid HCI Command Parameters (0x12).
extension RadioWorld {
    /// Handles one command packet from the host of `c`.
    func hostCommand(_ packet: HCICommandPacket, from c: ControllerModel) {
        let opcode = packet.opcode
        guard c.implemented.contains(opcode) else {
            reject(c, opcode, .unknownHCICommand)
            return
        }
        let value: HCICommandValue
        do {
            value = try HCICommandValue(packet: packet)
        } catch {
            reject(c, opcode, .invalidHCICommandParameters)
            return
        }
        if ImplementedCommands.legacyFamily.contains(opcode) || ImplementedCommands.extendedFamily.contains(opcode) {
            let family: CommandFamily = ImplementedCommands.legacyFamily.contains(opcode) ? .legacy : .extended
            if let chosen = c.family, chosen != family {
                reject(c, opcode, .commandDisallowed)
                return
            }
            c.family = family
        }
        switch value {
        case .reset: reset(c)
        case .setControllerToHostFlowControl(let command): setControllerToHostFlowControl(command, c)
        case .hostBufferSize(let command): hostBufferSize(command, c)
        case .hostNumberOfCompletedPackets(let command): hostNumberOfCompletedPackets(command, c)
        case .setEventMask(let command):
            c.eventMask = command.eventMask
            completeStatus(c, opcode, .success)
        case .leSetEventMask(let command):
            c.leEventMask = command.leEventMask
            completeStatus(c, opcode, .success)
        case .readLocalVersionInformation:
            let configuration = c.configuration
            complete(c, opcode, HCIReadLocalVersionInformation.ReturnParameters(
                hciVersion: configuration.version, hciSubversion: configuration.subversion,
                lmpVersion: configuration.version, companyIdentifier: configuration.companyIdentifier,
                lmpSubversion: configuration.subversion))
        case .readLocalSupportedCommands:
            complete(c, opcode, HCIReadLocalSupportedCommands.ReturnParameters(supportedCommands: c.supportedCommands))
        case .readLocalSupportedFeatures:
            complete(c, opcode, HCIReadLocalSupportedFeatures.ReturnParameters(lmpFeatures: c.configuration.lmpFeatures))
        case .leReadLocalSupportedFeatures:
            complete(c, opcode, HCILEReadLocalSupportedFeatures.ReturnParameters(leFeatures: c.configuration.leFeatures))
        case .readBDADDR:
            complete(c, opcode, HCIReadBDADDR.ReturnParameters(bdAddr: c.configuration.publicAddress ?? .zero))
        case .readBufferSize:
            let shared = c.configuration.sharesBuffersWithBREDR
            complete(c, opcode, HCIReadBufferSize.ReturnParameters(
                aclDataPacketLength: shared ? c.configuration.aclDataPacketLength : 0,
                totalNumACLDataPackets: shared ? UInt16(c.configuration.totalNumACLDataPackets) : 0))
        case .leReadBufferSize:
            let own = !c.configuration.sharesBuffersWithBREDR
            complete(c, opcode, HCILEReadBufferSize.ReturnParameters(
                leACLDataPacketLength: own ? c.configuration.aclDataPacketLength : 0,
                totalNumLEACLDataPackets: own ? c.configuration.totalNumACLDataPackets : 0))
        case .leReadBufferSizeV2:
            let own = !c.configuration.sharesBuffersWithBREDR
            complete(c, opcode, HCILEReadBufferSizeV2.ReturnParameters(
                leACLDataPacketLength: own ? c.configuration.aclDataPacketLength : 0,
                totalNumLEACLDataPackets: own ? c.configuration.totalNumACLDataPackets : 0,
                isoDataPacketLength: 0, totalNumISODataPackets: 0))
        case .leSetRandomAddress(let command):
            // 7.8.4: not while legacy advertising, scanning or initiating is enabled.
            if c.advertisingSets[ControllerModel.legacySetKey]?.enabled == true || c.scan.enabled || c.initiation != nil {
                completeStatus(c, opcode, .commandDisallowed)
            } else {
                c.randomAddress = command.randomAddress
                completeStatus(c, opcode, .success)
            }
        case .leReadFilterAcceptListSize:
            complete(c, opcode, HCILEReadFilterAcceptListSize.ReturnParameters(filterAcceptListSize: c.configuration.filterAcceptListSize))
        case .leClearFilterAcceptList:
            if filterAcceptListInUse(c) {
                completeStatus(c, opcode, .commandDisallowed)
            } else {
                c.filterAcceptList = []
                completeStatus(c, opcode, .success)
            }
        case .leAddDeviceToFilterAcceptList(let command):
            completeStatus(c, opcode, addToFilterAcceptList(c, DeviceAddress(type: command.addressType, address: command.address)))
        case .leRemoveDeviceFromFilterAcceptList(let command):
            let device = DeviceAddress(type: command.addressType, address: command.address)
            if ![0x00, 0x01, 0xFF].contains(command.addressType.rawValue) {
                completeStatus(c, opcode, .invalidHCICommandParameters)
            } else if filterAcceptListInUse(c) {
                completeStatus(c, opcode, .commandDisallowed)
            } else {
                c.filterAcceptList.removeAll { $0 == device }
                completeStatus(c, opcode, .success)
            }
        case .readRSSI(let command):
            readRSSI(c, handle: command.handle)
        case .leSetAdvertisingParameters(let command): setAdvertisingParameters(c, command)
        case .leSetAdvertisingData(let command):
            c.legacyData = command.advertisingData
            c.advertisingSets[ControllerModel.legacySetKey]?.data = command.advertisingData
            completeStatus(c, opcode, .success)
        case .leSetScanResponseData(let command):
            c.legacyScanResponse = command.scanResponseData
            c.advertisingSets[ControllerModel.legacySetKey]?.scanResponse = command.scanResponseData
            completeStatus(c, opcode, .success)
        case .leSetAdvertisingEnable(let command): setAdvertisingEnable(c, command)
        case .leSetAdvertisingSetRandomAddress(let command): setAdvertisingSetRandomAddress(c, command)
        case .leSetExtendedAdvertisingParameters(let command): setExtendedAdvertisingParameters(c, command)
        case .leSetExtendedAdvertisingData(let command):
            completeStatus(c, opcode, setExtendedData(c, handle: command.advertisingHandle, operation: command.operation,
                                                      data: command.advertisingData, scanResponse: false))
        case .leSetExtendedScanResponseData(let command):
            completeStatus(c, opcode, setExtendedData(c, handle: command.advertisingHandle, operation: command.operation,
                                                      data: command.scanResponseData, scanResponse: true))
        case .leSetExtendedAdvertisingEnable(let command): setExtendedAdvertisingEnable(c, command)
        case .leReadMaximumAdvertisingDataLength:
            complete(c, opcode, HCILEReadMaximumAdvertisingDataLength.ReturnParameters(
                maxAdvertisingDataLength: c.configuration.maximumAdvertisingDataLength))
        case .leSetScanParameters(let command): setScanParameters(c, command)
        case .leSetScanEnable(let command): setScanEnable(c, command)
        case .leSetExtendedScanParameters(let command): setExtendedScanParameters(c, command)
        case .leSetExtendedScanEnable(let command): setExtendedScanEnable(c, command)
        case .leCreateConnection(let command): createConnection(c, command)
        case .leExtendedCreateConnection(let command): extendedCreateConnection(c, command)
        case .leCreateConnectionCancel: createConnectionCancel(c)
        case .disconnect(let command): disconnect(c, command)
        case .leConnectionUpdate(let command): connectionUpdate(c, command)
        case .leSetDataLength(let command): setDataLength(c, command)
        case .leReadPHY(let command): readPHY(c, command)
        case .leSetPHY(let command): setPHY(c, command)
        case .leReadRemoteFeatures(let command): readRemoteFeatures(c, command)
        case .leReadNumberOfSupportedAdvertisingSets:
            complete(c, opcode, HCILEReadNumberOfSupportedAdvertisingSets.ReturnParameters(
                numSupportedAdvertisingSets: c.configuration.numberOfAdvertisingSets))
        case .leRemoveAdvertisingSet(let command):
            completeStatus(c, opcode, removeAdvertisingSets(c, handle: command.advertisingHandle))
        case .leClearAdvertisingSets:
            completeStatus(c, opcode, removeAdvertisingSets(c, handle: nil))
        case .leReadSuggestedDefaultDataLength:
            complete(c, opcode, HCILEReadSuggestedDefaultDataLength.ReturnParameters(
                suggestedMaxTXOctets: c.suggestedTxOctets, suggestedMaxTXTime: .init(rawValue: c.suggestedTxTime)))
        case .leWriteSuggestedDefaultDataLength(let command):
            guard (0x001B...0x00FB).contains(command.suggestedMaxTXOctets),
                  (0x0148...0x4290).contains(command.suggestedMaxTXTime.rawValue)
            else { return completeStatus(c, opcode, .invalidHCICommandParameters) }
            c.suggestedTxOctets = command.suggestedMaxTXOctets
            c.suggestedTxTime = command.suggestedMaxTXTime.rawValue
            completeStatus(c, opcode, .success)
        case .leReadMaximumDataLength:
            let octets = c.configuration.maximumDataLength
            complete(c, opcode, HCILEReadMaximumDataLength.ReturnParameters(
                supportedMaxTXOctets: octets, supportedMaxTXTime: .init(rawValue: (octets + 14) * 8),
                supportedMaxRXOctets: octets, supportedMaxRXTime: .init(rawValue: (octets + 14) * 8)))
        case .leSetDefaultPHY(let command):
            let noTX = command.allPHYs.contains(.noTXPreference), noRX = command.allPHYs.contains(.noRXPreference)
            guard command.allPHYs.rawValue <= 0b11, command.txPHYs.rawValue & ~0b111 == 0, command.rxPHYs.rawValue & ~0b111 == 0,
                  noTX || !command.txPHYs.isEmpty, noRX || !command.rxPHYs.isEmpty
            else { return completeStatus(c, opcode, .invalidHCICommandParameters) }
            guard Self.choosePHY(command.txPHYs, noPreference: noTX) != nil, Self.choosePHY(command.rxPHYs, noPreference: noRX) != nil else {
                return completeStatus(c, opcode, .unsupportedFeatureOrParameterValue)
            }
            c.defaultPHY = command
            completeStatus(c, opcode, .success)
        case .leLongTermKeyRequestReply, .unknown:
            reject(c, opcode, .unknownHCICommand)
        }
    }

    // MARK: Answers

    /// Command Complete with `returnParameters` (Vol 4, Part E, 7.7.14).
    func complete<P: HCIReturnParameters>(_ c: ControllerModel, _ opcode: HCIOpcode, _ returnParameters: P) {
        emit(HCIEvent.CommandComplete(numHCICommandPackets: c.configuration.numHCICommandPackets, commandOpcode: opcode,
                                      returnParameters: returnParameters.encoded).packet, to: c)
    }

    /// Command Complete whose return parameters are Status alone.
    func completeStatus(_ c: ControllerModel, _ opcode: HCIOpcode, _ status: HCIStatus) {
        complete(c, opcode, HCIStatusReturnParameters(status: status))
    }

    /// Command Status (Vol 4, Part E, 7.7.15).
    func commandStatus(_ c: ControllerModel, _ opcode: HCIOpcode, _ status: HCIStatus) {
        emit(HCIEvent.CommandStatus(status: status, numHCICommandPackets: c.configuration.numHCICommandPackets,
                                    commandOpcode: opcode).packet, to: c)
    }

    /// A failure in whichever event the command ends with: Command Status for the commands that
    /// use it, otherwise Command Complete with Status alone (Vol 4, Part E, 4.5).
    func reject(_ c: ControllerModel, _ opcode: HCIOpcode, _ status: HCIStatus) {
        if ImplementedCommands.usesCommandStatus(opcode) {
            commandStatus(c, opcode, status)
        } else {
            completeStatus(c, opcode, status)
        }
    }

    // MARK: Reset (7.3.2)

    /// HCI Reset: drops every link (each peer's side ends at its supervision timeout with
    /// Connection Timeout, 0x08, as the link goes silent), stops advertising, scanning and
    /// initiating, restores the default masks, then answers.
    func reset(_ c: ControllerModel) {
        silence(c)
        completeStatus(c, .reset, .success)
    }

    /// Loses every state of `c` as HCI Reset or a power cycle does: its links go silent at its
    /// end and time out at the peers'.
    func silence(_ c: ControllerModel) {
        for end in c.connections.values {
            guard let link = links[end.link], let side = link.side(of: c.index) else { continue }
            goSilent(link, side: side)
        }
        c.resetState()
    }

    // MARK: Filter Accept List (7.8.14-7.8.17)

    /// Whether the Filter Accept List is in use by advertising, scanning or initiating, when the
    /// controller may not change it.
    func filterAcceptListInUse(_ c: ControllerModel) -> Bool {
        if c.advertisingSets.values.contains(where: { $0.enabled && $0.filterPolicy != .acceptAll }) { return true }
        if c.scan.enabled && (c.scan.filterPolicy == .basicFiltered || c.scan.filterPolicy == .extendedFiltered) { return true }
        if let initiation = c.initiation, initiation.filterPolicy == .filterAcceptList { return true }
        return false
    }

    func addToFilterAcceptList(_ c: ControllerModel, _ device: DeviceAddress) -> HCIStatus {
        guard [0x00, 0x01, 0xFF].contains(device.type.rawValue) else { return .invalidHCICommandParameters }
        guard !filterAcceptListInUse(c) else { return .commandDisallowed }
        if c.filterAcceptList.contains(device) { return .success }
        guard c.filterAcceptList.count < Int(c.configuration.filterAcceptListSize) else { return .memoryCapacityExceeded }
        c.filterAcceptList.append(device)
        return .success
    }

    // MARK: Read RSSI (7.5.4)

    func readRSSI(_ c: ControllerModel, handle: UInt16) {
        guard let end = c.connections[handle], let link = links[end.link] else {
            complete(c, .readRSSI, HCIReadRSSI.ReturnParameters(status: .unknownConnectionIdentifier, handle: handle, rssi: 0))
            return
        }
        let peer = controllers[link.controllers[1 - (link.side(of: c.index) ?? 0)]]
        complete(c, .readRSSI, HCIReadRSSI.ReturnParameters(handle: handle, rssi: measuredRSSI(peer, c)))
    }
}
