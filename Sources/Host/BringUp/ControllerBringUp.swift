import BLECore
import HCI

/// Brings a controller up for host mode, in the order controllers accept (Core v5.4, Vol 4,
/// Part E; the commands' sections below), and says what it found.
///
/// 1. HCI_Reset (7.3.2).
/// 2. HCI_Read_Local_Version_Information (7.4.1), HCI_Read_Local_Supported_Commands (7.4.2),
///    HCI_Read_Local_Supported_Features (7.4.3): LE must be supported.
/// 3. HCI_LE_Read_Local_Supported_Features (7.8.3); for the extended family,
///    HCI_LE_Read_Maximum_Advertising_Data_Length (7.8.57; 31 octets if it is not known).
/// 4. HCI_Read_BD_ADDR (7.4.6). A controller with no public address returns zero: the host then
///    sets a static random address with HCI_LE_Set_Random_Address (7.8.4) and uses it.
/// 5. HCI_LE_Read_Buffer_Size [v2] when the controller lists it, else [v1] (7.8.2); a zero LE
///    length means shared buffers, read with HCI_Read_Buffer_Size (7.4.5).
/// 6. HCI_Set_Event_Mask (7.3.1) and HCI_LE_Set_Event_Mask (7.8.1) for exactly the events host
///    mode handles (``eventMask`` and ``leEventMask(for:)``).
/// 7. When the controller lists them: HCI_Host_Buffer_Size (7.3.39) with ``hostACLBuffers``
///    buffers, then HCI_Set_Controller_To_Host_Flow_Control (7.3.38) for ACL data, so that the
///    controller holds data back while a link's route is full instead of the router dropping
///    it (4.2); the flow then returns buffers as readers take packets
///    (``HCICommandFlow/returnACLBuffers(hostTotal:)``). The connection layer takes each packet
///    as it is routed, so a peer that floods meets its bounded queues instead (a link's ATT
///    PDUs and other frames), which drop and count what does not fit
///    (``LEConnectionManager/Diagnostics``). This step is optional: a controller that refuses
///    it runs without, and the bring-up goes on.
///
/// A command answered with an error, or not answered within the flow's command timeout, ends the
/// bring-up with ``ControllerBringUpError/command(_:)``, whose message names the command.
///
/// ```swift
/// let flow = HCICommandFlow(transport: transport)
/// let controller = try await ControllerBringUp.run(on: flow)
/// print(controller)   // C3:11:22:33:44:55 (static random), HCI version 13, ..., ACL 8 × 27 octets (LE Read Buffer Size [v1])
/// ```
public enum ControllerBringUp {
    /// The Event_Mask host mode sets: Disconnection Complete (bit 4), Hardware Error (bit 15),
    /// Data Buffer Overflow (bit 25) and LE Meta (bit 61). Command Complete, Command Status and
    /// Number Of Completed Packets cannot be masked.
    public static let eventMask: HCIEventMask = [.disconnectionComplete, .hardwareError, .dataBufferOverflow, .leMeta]

    /// The LE_Event_Mask host mode sets for a command family: connections (LE Connection
    /// Complete and LE Enhanced Connection Complete, of which the controller sends the latter),
    /// connection updates, data length and PHY changes, and the family's advertising reports
    /// (legacy: LE Advertising Report; extended: LE Extended Advertising Report and LE
    /// Advertising Set Terminated).
    public static func leEventMask(for family: LECommandFamily) -> LEEventMask {
        let links: LEEventMask = [.connectionComplete, .enhancedConnectionComplete, .connectionUpdateComplete,
                                  .dataLengthChange, .phyUpdateComplete]
        switch family {
        case .legacy: return links.union(.advertisingReport)
        case .extended: return links.union([.extendedAdvertisingReport, LEEventMask(enabling: .advertisingSetTerminated)])
        }
    }

    /// The ACL buffers the host declares for flow control from the controller to the host: 256,
    /// the router's queue per link, so that no queue can overflow whatever the links.
    public static let hostACLBuffers = HCIRouter.defaultACLCapacity
    /// The largest ACL data payload the host declares it accepts, in octets: 1,024 (LE data
    /// PDUs carry at most 251; the reassembler takes any length).
    public static let hostACLDataPacketLength: UInt16 = 1024

    /// The smallest LE ACL payload a controller may offer, in octets (Vol 4, Part E, 7.8.2:
    /// LE_ACL_Data_Packet_Length is at least 27).
    static let minimumLEACLLength = 27

    /// Runs the bring-up on `flow`.
    ///
    /// - Parameter staticRandomAddress: the static random address to use when the controller has
    ///   no public one (a stored one, so peers find the device again); nil makes a new one.
    /// - Returns: what the controller said, and the address and buffers the host uses.
    /// - Throws: ``ControllerBringUpError``.
    public static func run(on flow: HCICommandFlow, staticRandomAddress: BluetoothAddress? = nil) async throws(ControllerBringUpError) -> ControllerInformation {
        do {
            try await flow.send(HCIReset())
            let version = try await flow.send(HCIReadLocalVersionInformation())
            let commands = try await flow.send(HCIReadLocalSupportedCommands()).supportedCommands
            let lmpFeatures = try await flow.send(HCIReadLocalSupportedFeatures()).lmpFeatures
            guard lmpFeatures.contains(.leSupportedController) else { throw ControllerBringUpError.leNotSupported }
            let leFeatures = try await flow.send(HCILEReadLocalSupportedFeatures()).leFeatures
            var maximumData = AdvertisingData.legacyMaximumLength
            if LECommandFamily.choose(features: leFeatures, commands: commands) == .extended {
                maximumData = try await maximumAdvertisingDataLength(flow)
            }
            let bdAddr = try await flow.send(HCIReadBDADDR()).bdAddr
            let buffers = try await aclBuffers(flow, commands: commands)
            let capabilities = LEControllerCapabilities(
                leFeatures: leFeatures, supportedCommands: commands,
                leACLDataPacketLength: UInt16(clamping: buffers.length), totalNumLEACLDataPackets: UInt8(clamping: buffers.count),
                maximumAdvertisingDataLength: maximumData)
            let leMask = leEventMask(for: capabilities.commandFamily)
            try await flow.send(HCISetEventMask(eventMask: eventMask))
            try await flow.send(HCILESetEventMask(leEventMask: leMask))
            var address = bdAddr
            var ownAddressType = LEOwnAddressType.public
            if bdAddr == .zero {
                address = staticRandomAddress.flatMap { $0.isValidStaticRandom ? $0 : nil } ?? .staticRandom()
                ownAddressType = .random
                try await flow.send(HCILESetRandomAddress(randomAddress: address))
            }
            let hostBuffers = await controllerToHostFlowControl(flow, commands: commands)
            return ControllerInformation(version: version, lmpFeatures: lmpFeatures, capabilities: capabilities,
                                         publicAddress: bdAddr == .zero ? nil : bdAddr, address: address,
                                         ownAddressType: ownAddressType, aclBuffers: buffers,
                                         eventMask: eventMask, leEventMask: leMask, hostACLBuffers: hostBuffers)
        } catch let error as ControllerBringUpError {
            throw error
        } catch let error as HCICommandError {
            throw .command(error)
        } catch {
            preconditionFailure("unreachable: every throw above is typed")
        }
    }

    /// Step 7: the host's buffers declared and flow control from the controller to the host on;
    /// the buffers declared, or nil when the controller lacks the commands or refuses them.
    private static func controllerToHostFlowControl(_ flow: HCICommandFlow, commands: HCISupportedCommands) async -> Int? {
        guard commands.supports(.hostBufferSize) == true, commands.supports(.setControllerToHostFlowControl) == true,
              commands.supports(.hostNumberOfCompletedPackets) == true else { return nil }
        do {
            try await flow.send(HCIHostBufferSize(hostACLDataPacketLength: hostACLDataPacketLength,
                                                  hostTotalNumACLDataPackets: UInt16(hostACLBuffers)))
            try await flow.send(HCISetControllerToHostFlowControl(flowControlEnable: HCISetControllerToHostFlowControl.aclOnly))
        } catch {
            return nil
        }
        await flow.returnACLBuffers(hostTotal: hostACLBuffers)
        return hostACLBuffers
    }

    /// HCI_LE_Read_Maximum_Advertising_Data_Length, or 31 octets from a controller that lists
    /// the extended commands but does not know this one (BlueZ 5.66's emulated controllers).
    private static func maximumAdvertisingDataLength(_ flow: HCICommandFlow) async throws(HCICommandError) -> Int {
        do {
            return Int(try await flow.send(HCILEReadMaximumAdvertisingDataLength()).maxAdvertisingDataLength)
        } catch .status(.unknownHCICommand, _) {
            return AdvertisingData.legacyMaximumLength
        }
    }

    /// LE Read Buffer Size v2 when listed, else v1; HCI_Read_Buffer_Size when LE shares buffers.
    private static func aclBuffers(_ flow: HCICommandFlow, commands: HCISupportedCommands) async throws(ControllerBringUpError) -> ACLBufferSize {
        var buffers: ACLBufferSize
        do {
            if commands.supports(.leReadBufferSizeV2) == true {
                let v2 = try await flow.send(HCILEReadBufferSizeV2())
                buffers = ACLBufferSize(length: Int(v2.leACLDataPacketLength), count: Int(v2.totalNumLEACLDataPackets), source: .leV2)
            } else {
                let v1 = try await flow.send(HCILEReadBufferSize())
                buffers = ACLBufferSize(length: Int(v1.leACLDataPacketLength), count: Int(v1.totalNumLEACLDataPackets), source: .leV1)
            }
            if buffers.length == 0 {
                let shared = try await flow.send(HCIReadBufferSize())
                buffers = ACLBufferSize(length: Int(shared.aclDataPacketLength), count: Int(shared.totalNumACLDataPackets), source: .shared)
            }
        } catch {
            throw .command(error)
        }
        guard buffers.length >= minimumLEACLLength, buffers.count > 0 else {
            throw .noACLBuffers(length: buffers.length, count: buffers.count)
        }
        return buffers
    }
}
