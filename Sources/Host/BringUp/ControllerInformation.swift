import BLECore
import HCI

/// What host mode learned of its controller while bringing it up (``ControllerBringUp``): who
/// it is, what it supports, the address the host uses, and its ACL buffers.
public struct ControllerInformation: Hashable, Sendable, CustomStringConvertible {
    /// HCI_Read_Local_Version_Information (Core v5.4, Vol 4, Part E, 7.4.1).
    public var version: HCIReadLocalVersionInformation.ReturnParameters
    /// LMP_Features, page 0 (7.4.3): LE Supported (Controller) is bit 38.
    public var lmpFeatures: LMPFeatures
    /// LE features, supported commands, the LE ACL buffers and the command family chosen
    /// (legacy or extended advertising and scanning, never both).
    public var capabilities: LEControllerCapabilities
    /// The controller's public device address (HCI_Read_BD_ADDR, 7.4.6); nil when it has none
    /// (it returned 00:00:00:00:00:00).
    public var publicAddress: BluetoothAddress?
    /// The address the host advertises, scans and connects with: the public address, or the
    /// static random address it set with HCI_LE_Set_Random_Address (Vol 6, Part B, 1.3.2.1).
    public var address: BluetoothAddress
    /// Whether ``address`` is the public address (Own_Address_Type 0x00) or the static random
    /// one (0x01).
    public var ownAddressType: LEOwnAddressType
    /// The ACL buffers the host's credits come from.
    public var aclBuffers: ACLBufferSize
    /// The Event_Mask the host set (7.3.1).
    public var eventMask: HCIEventMask
    /// The LE_Event_Mask the host set (7.8.1).
    public var leEventMask: LEEventMask
    /// The ACL buffers the host declared for flow control from the controller to the host
    /// (Host_Total_Num_ACL_Data_Packets, 7.3.39, with the control on, 7.3.38); nil when the
    /// controller lacks those commands or refused them, and the router's bounded queues count
    /// what they must drop instead.
    public var hostACLBuffers: Int?

    /// Information from its values.
    public init(version: HCIReadLocalVersionInformation.ReturnParameters, lmpFeatures: LMPFeatures,
                capabilities: LEControllerCapabilities, publicAddress: BluetoothAddress?, address: BluetoothAddress,
                ownAddressType: LEOwnAddressType, aclBuffers: ACLBufferSize, eventMask: HCIEventMask, leEventMask: LEEventMask,
                hostACLBuffers: Int? = nil) {
        self.version = version
        self.lmpFeatures = lmpFeatures
        self.capabilities = capabilities
        self.publicAddress = publicAddress
        self.address = address
        self.ownAddressType = ownAddressType
        self.aclBuffers = aclBuffers
        self.eventMask = eventMask
        self.leEventMask = leEventMask
        self.hostACLBuffers = hostACLBuffers
    }

    /// One line: address, version, family and buffers.
    public var description: String {
        let kind = ownAddressType == .public ? "public" : "static random"
        return "\(address) (\(kind)), HCI version \(version.hciVersion), manufacturer 0x\(String(version.companyIdentifier, radix: 16, uppercase: true)), "
            + "\(capabilities.commandFamily) advertising and scanning, ACL \(aclBuffers)"
            + (hostACLBuffers.map { ", host flow control (\($0) buffers)" } ?? "")
    }
}
