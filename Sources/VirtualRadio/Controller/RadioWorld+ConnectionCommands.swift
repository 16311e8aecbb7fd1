import BLECore
import HCI

/// Initiating, disconnecting and the per-connection commands (Core v5.4, Vol 4, Part E, 7.1.6,
/// 7.8.12, 7.8.13, 7.8.18, 7.8.21, 7.8.33, 7.8.47, 7.8.49, 7.8.66).
extension RadioWorld {
    /// Whether `parameters` are in the ranges of 7.8.12 and the supervision timeout exceeds
    /// (1 + latency) * interval max * 2 (Vol 6, Part B, 4.5.2).
    static func valid(_ parameters: LEConnectionParameters) -> Bool {
        let minimum = parameters.connectionIntervalMin.rawValue, maximum = parameters.connectionIntervalMax.rawValue
        let timeout = parameters.supervisionTimeout.rawValue
        guard (0x0006...0x0C80).contains(minimum), (minimum...0x0C80).contains(maximum), parameters.maxLatency <= 0x01F3,
              (0x000A...0x0C80).contains(timeout), parameters.minCELength <= parameters.maxCELength
        else { return false }
        return parameters.supervisionTimeout.microseconds > (1 + Int(parameters.maxLatency)) * parameters.connectionIntervalMax.microseconds * 2
    }

    /// The device a peer address type and address name: identity types 0x02/0x03 are taken as
    /// public/random, as this controller has no resolving list.
    static func device(_ type: LEAddressType, _ address: BluetoothAddress) -> DeviceAddress {
        DeviceAddress(type: type.rawValue & 0x01 == 0 ? .public : .random, address: address)
    }

    func createConnection(_ c: ControllerModel, _ command: HCILECreateConnection) {
        let opcode = HCIOpcode.leCreateConnection
        guard c.initiation == nil else { return commandStatus(c, opcode, .commandDisallowed) }
        let interval = command.leScanInterval.rawValue
        guard (0x0004...0x4000).contains(interval), (0x0004...interval).contains(command.leScanWindow.rawValue),
              command.initiatorFilterPolicy.rawValue <= 1, command.peerAddressType.rawValue <= 0x03,
              command.ownAddressType.rawValue <= 0x03, Self.valid(command.connectionParameters),
              c.ownAddress(command.ownAddressType, random: c.randomAddress) != nil
        else { return commandStatus(c, opcode, .invalidHCICommandParameters) }
        let peer = Self.device(command.peerAddressType, command.peerAddress)
        if command.initiatorFilterPolicy == .peerAddress, isConnected(c, to: peer) {
            return commandStatus(c, opcode, .connectionAlreadyExists)
        }
        c.initiation = Initiation(filterPolicy: command.initiatorFilterPolicy, peerAddressType: peer.type, peerAddress: peer.address,
                                  ownAddressType: command.ownAddressType, scanInterval: Micros(command.leScanInterval.microseconds),
                                  scanWindow: Micros(command.leScanWindow.microseconds),
                                  parameters: command.connectionParameters, extended: false, startedAt: now)
        commandStatus(c, opcode, .success)
    }

    func extendedCreateConnection(_ c: ControllerModel, _ command: HCILEExtendedCreateConnection) {
        let opcode = HCIOpcode.leExtendedCreateConnection
        guard c.initiation == nil else { return commandStatus(c, opcode, .commandDisallowed) }
        let phys = command.initiatingPHYs.rawValue
        guard phys & ~0b111 == 0, phys & 0b101 != 0, command.initiatorFilterPolicy.rawValue <= 1,
              command.peerAddressType.rawValue <= 0x03, command.ownAddressType.rawValue <= 0x03,
              command.phyParameters.allSatisfy({ p in
                  p.scanInterval.rawValue >= 0x0004 && (0x0004...p.scanInterval.rawValue).contains(p.scanWindow.rawValue)
                      && Self.valid(p.connectionParameters)
              }),
              c.ownAddress(command.ownAddressType, random: c.randomAddress) != nil
        else { return commandStatus(c, opcode, .invalidHCICommandParameters) }
        guard phys & 0b100 == 0, let le1M = command.parameters(for: .le1M) else {
            return commandStatus(c, opcode, .unsupportedFeatureOrParameterValue)   // no LE Coded PHY
        }
        let peer = Self.device(command.peerAddressType, command.peerAddress)
        if command.initiatorFilterPolicy == .peerAddress, isConnected(c, to: peer) {
            return commandStatus(c, opcode, .connectionAlreadyExists)
        }
        c.initiation = Initiation(filterPolicy: command.initiatorFilterPolicy, peerAddressType: peer.type, peerAddress: peer.address,
                                  ownAddressType: command.ownAddressType, scanInterval: Micros(le1M.scanInterval.microseconds),
                                  scanWindow: Micros(le1M.scanWindow.microseconds),
                                  parameters: le1M.connectionParameters, extended: true, startedAt: now)
        commandStatus(c, opcode, .success)
    }

    /// LE Create Connection Cancel: Command Complete, then LE (Enhanced) Connection Complete
    /// with Unknown Connection Identifier (0x02); Command Disallowed when nothing is pending (7.8.13).
    func createConnectionCancel(_ c: ControllerModel) {
        guard c.initiation != nil else { return completeStatus(c, .leCreateConnectionCancel, .commandDisallowed) }
        c.initiation = nil
        completeStatus(c, .leCreateConnectionCancel, .success)
        emitConnectionComplete(c, status: .unknownConnectionIdentifier, handle: 0, role: .central, peer: nil, link: nil)
    }

    func isConnected(_ c: ControllerModel, to peer: DeviceAddress) -> Bool {
        c.connections.values.contains { end in links[end.link]?.peerAddress(of: c.index) == peer }
    }

    /// The link of `handle` on `c` and `c`'s side of it.
    func connection(_ c: ControllerModel, _ handle: UInt16) -> (link: Link, side: Int)? {
        guard let end = c.connections[handle], let link = links[end.link], let side = link.side(of: c.index) else { return nil }
        return (link, side)
    }

    /// Disconnect: Command Status, then LL_TERMINATE_IND at the next connection event; the
    /// local host hears reason 0x16, the peer's the reason given (7.1.6).
    func disconnect(_ c: ControllerModel, _ command: HCIDisconnect) {
        let opcode = HCIOpcode.disconnect
        guard let (link, side) = connection(c, command.connectionHandle) else {
            return commandStatus(c, opcode, .unknownConnectionIdentifier)
        }
        guard [0x05, 0x13, 0x14, 0x15, 0x1A, 0x29, 0x3B].contains(command.reason.rawValue) else {
            return commandStatus(c, opcode, .invalidHCICommandParameters)
        }
        if link.procedures.contains(where: { if case .terminate = $0 { return true } else { return false } }) {
            return commandStatus(c, opcode, .commandDisallowed)
        }
        commandStatus(c, opcode, .success)
        link.procedures.append(.terminate(side: side, reason: command.reason))
        ensureConnectionEvent(link)
    }

    /// LE Connection Update from the central (7.8.18). The peripheral's host may not use it on
    /// this controller, which lacks the Connection Parameters Request procedure: Unsupported
    /// Remote Feature (0x1A).
    func connectionUpdate(_ c: ControllerModel, _ command: HCILEConnectionUpdate) {
        let opcode = HCIOpcode.leConnectionUpdate
        guard let (link, side) = connection(c, command.connectionHandle) else {
            return commandStatus(c, opcode, .unknownConnectionIdentifier)
        }
        guard Self.valid(command.connectionParameters) else { return commandStatus(c, opcode, .invalidHCICommandParameters) }
        guard side == 0 else { return commandStatus(c, opcode, .unsupportedRemoteFeature) }
        let pending = link.procedures.contains { if case .connectionUpdate = $0 { return true } else { return false } }
            || link.instants.contains { if case .connectionUpdate = $0.change { return true } else { return false } }
        guard !pending else { return commandStatus(c, opcode, .commandDisallowed) }
        commandStatus(c, opcode, .success)
        link.procedures.append(.connectionUpdate(command.connectionParameters))
        ensureConnectionEvent(link)
    }

    /// LE Set Data Length: Command Complete, then the LL_LENGTH_REQ exchange at the next
    /// connection event and LE Data Length Change on each side whose values change (7.8.33).
    func setDataLength(_ c: ControllerModel, _ command: HCILESetDataLength) {
        let opcode = HCIOpcode.leSetDataLength
        guard let (link, side) = connection(c, command.connectionHandle) else {
            return complete(c, opcode, HCIConnectionHandleReturnParameters(status: .unknownConnectionIdentifier,
                                                                           connectionHandle: command.connectionHandle))
        }
        guard (0x001B...0x00FB).contains(command.txOctets), (0x0148...0x4290).contains(command.txTime.rawValue) else {
            return complete(c, opcode, HCIConnectionHandleReturnParameters(status: .invalidHCICommandParameters,
                                                                           connectionHandle: command.connectionHandle))
        }
        // TX time limits the octets too: (octets + 14) * 8 µs on LE 1M (Vol 6, Part B, 4.5.10).
        let byTime = UInt16(min(max(Int(command.txTime.rawValue) / 8 - 14, 27), 251))
        let octets = min(command.txOctets, byTime, c.configuration.maximumDataLength)
        complete(c, opcode, HCIConnectionHandleReturnParameters(connectionHandle: command.connectionHandle))
        link.procedures.append(.dataLength(side: side, txOctets: octets))
        ensureConnectionEvent(link)
    }

    func readPHY(_ c: ControllerModel, _ command: HCILEReadPHY) {
        guard let (link, side) = connection(c, command.connectionHandle) else {
            return complete(c, .leReadPHY, HCILEReadPHY.ReturnParameters(status: .unknownConnectionIdentifier,
                                                                         connectionHandle: command.connectionHandle,
                                                                         txPHY: .init(rawValue: 0), rxPHY: .init(rawValue: 0)))
        }
        complete(c, .leReadPHY, HCILEReadPHY.ReturnParameters(connectionHandle: command.connectionHandle,
                                                              txPHY: link.txPHY[side], rxPHY: link.txPHY[1 - side]))
    }

    /// The PHY this controller picks from a host's preference: LE 2M when allowed (or no
    /// preference), else LE 1M; nil when only LE Coded, which it lacks, is allowed.
    static func choosePHY(_ preferred: LEPHYs, noPreference: Bool) -> LEPHY? {
        if noPreference || preferred.contains(.le2M) { return .le2M }
        if preferred.contains(.le1M) { return .le1M }
        return nil
    }

    /// LE Set PHY: Command Status, then the PHY update procedure and LE PHY Update Complete (7.8.49).
    func setPHY(_ c: ControllerModel, _ command: HCILESetPHY) {
        let opcode = HCIOpcode.leSetPHY
        guard let (link, side) = connection(c, command.connectionHandle) else {
            return commandStatus(c, opcode, .unknownConnectionIdentifier)
        }
        let noTX = command.allPHYs.contains(.noTXPreference), noRX = command.allPHYs.contains(.noRXPreference)
        guard command.allPHYs.rawValue <= 0b11, command.txPHYs.rawValue & ~0b111 == 0, command.rxPHYs.rawValue & ~0b111 == 0,
              noTX || !command.txPHYs.isEmpty, noRX || !command.rxPHYs.isEmpty, command.phyOptions.rawValue <= 2
        else { return commandStatus(c, opcode, .invalidHCICommandParameters) }
        guard let tx = Self.choosePHY(command.txPHYs, noPreference: noTX),
              let rx = Self.choosePHY(command.rxPHYs, noPreference: noRX)
        else { return commandStatus(c, opcode, .unsupportedFeatureOrParameterValue) }
        commandStatus(c, opcode, .success)
        link.procedures.append(.phy(side: side, tx: tx, rx: rx))
        ensureConnectionEvent(link)
    }

    /// LE Read Remote Features: Command Status, then the feature exchange and LE Read Remote
    /// Features Complete (7.8.21).
    func readRemoteFeatures(_ c: ControllerModel, _ command: HCILEReadRemoteFeatures) {
        let opcode = HCIOpcode.leReadRemoteFeatures
        guard let (link, side) = connection(c, command.connectionHandle) else {
            return commandStatus(c, opcode, .unknownConnectionIdentifier)
        }
        commandStatus(c, opcode, .success)
        link.procedures.append(.readRemoteFeatures(side: side))
        ensureConnectionEvent(link)
    }
}
