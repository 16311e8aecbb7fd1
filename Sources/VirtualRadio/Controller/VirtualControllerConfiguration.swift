import BLECore
import HCI

/// What a ``VirtualController`` is: its address, which optional commands it implements, its
/// buffers and its identity (Core v5.4, Vol 4, Part E, 7.4: the informational parameters).
///
/// ```swift
/// var configuration = VirtualControllerConfiguration(publicAddress: BluetoothAddress("C0:FF:EE:00:00:01"))
/// configuration.supportsExtendedAdvertising = false   // a legacy-only controller
/// let controller = radio.makeController(configuration: configuration)
/// ```
///
/// The defaults are a strict small controller: 27-octet ACL buffers and 4 of them, so a host's
/// flow control and fragmentation are exercised from the first packet.
public struct VirtualControllerConfiguration: Hashable, Sendable {
    /// The public device address (BD_ADDR); nil for a controller without one, whose HCI Read
    /// BD_ADDR returns 00:00:00:00:00:00 and which refuses Own_Address_Type public (0x00) with
    /// Invalid HCI Command Parameters (0x12): its host must set a static random address.
    public var publicAddress: BluetoothAddress?
    /// Whether the extended advertising, extended scanning and extended create connection
    /// commands are implemented (LE feature bit 12, LE Extended Advertising, and the Supported
    /// Commands bits of octets 36 and 37 agree). Without them those opcodes are unknown (0x01).
    public var supportsExtendedAdvertising: Bool
    /// Whether HCI_LE_Read_Buffer_Size [v2] (7.8.2) is implemented, or only [v1].
    public var supportsReadBufferSizeV2: Bool
    /// Whether flow control from the controller to the host is implemented:
    /// HCI_Set_Controller_To_Host_Flow_Control, HCI_Host_Buffer_Size and
    /// HCI_Host_Number_Of_Completed_Packets (7.3.38-7.3.40; optional in the specification).
    public var supportsControllerToHostFlowControl = true
    /// Whether LE data shares the BR/EDR ACL buffers: LE Read Buffer Size then returns length 0
    /// and count 0, and the host must use HCI_Read_Buffer_Size (7.4.5). When false, LE has its
    /// own buffers and HCI_Read_Buffer_Size reports none (this LE-only controller has no BR/EDR).
    public var sharesBuffersWithBREDR: Bool
    /// The longest ACL data the controller accepts from its host per packet, in octets
    /// (LE_ACL_Data_Packet_Length); 27 by default.
    public var aclDataPacketLength: UInt16
    /// How many ACL packets from the host the controller can hold (Total_Num_LE_ACL_Data_Packets);
    /// 4 by default, at most 255.
    public var totalNumACLDataPackets: UInt8
    /// The most advertising (or scan response) data an extended advertising set holds, in octets
    /// (7.8.57); 1650 by default, at most 1650. Legacy advertising holds 31.
    public var maximumAdvertisingDataLength: UInt16
    /// How many extended advertising sets the controller holds at once (7.8.58); 4 by default.
    public var numberOfAdvertisingSets: UInt8
    /// The number of entries of the Filter Accept List (7.8.14); 8 by default.
    public var filterAcceptListSize: UInt8
    /// Num_HCI_Command_Packets in every Command Complete and Command Status (7.7.14); 1 by default.
    public var numHCICommandPackets: UInt8
    /// Company_Identifier of HCI Read Local Version Information (7.4.1); 0xFFFF ("for tests").
    public var companyIdentifier: UInt16
    /// HCI_Version and LMP_Version (7.4.1); 0x0D, Core v5.4, by default.
    public var version: UInt8
    /// HCI_Subversion and LMP_Subversion (7.4.1).
    public var subversion: UInt16
    /// The largest link-layer data PDU payload the controller supports, in octets (Vol 6,
    /// Part B, 4.5.10: connMaxTxOctets/connMaxRxOctets); 251 by default, at least 27.
    public var maximumDataLength: UInt16

    /// A configuration; every parameter is described at its property.
    public init(publicAddress: BluetoothAddress? = nil, supportsExtendedAdvertising: Bool = true,
                supportsReadBufferSizeV2: Bool = true, sharesBuffersWithBREDR: Bool = false,
                aclDataPacketLength: UInt16 = 27, totalNumACLDataPackets: UInt8 = 4,
                maximumAdvertisingDataLength: UInt16 = 1650, numberOfAdvertisingSets: UInt8 = 4,
                filterAcceptListSize: UInt8 = 8, numHCICommandPackets: UInt8 = 1,
                companyIdentifier: UInt16 = 0xFFFF, version: UInt8 = 0x0D, subversion: UInt16 = 0x0001,
                maximumDataLength: UInt16 = 251) {
        self.publicAddress = publicAddress
        self.supportsExtendedAdvertising = supportsExtendedAdvertising
        self.supportsReadBufferSizeV2 = supportsReadBufferSizeV2
        self.sharesBuffersWithBREDR = sharesBuffersWithBREDR
        self.aclDataPacketLength = aclDataPacketLength
        self.totalNumACLDataPackets = totalNumACLDataPackets
        self.maximumAdvertisingDataLength = min(maximumAdvertisingDataLength, 1650)
        self.numberOfAdvertisingSets = numberOfAdvertisingSets
        self.filterAcceptListSize = filterAcceptListSize
        self.numHCICommandPackets = numHCICommandPackets
        self.companyIdentifier = companyIdentifier
        self.version = version
        self.subversion = subversion
        self.maximumDataLength = min(max(maximumDataLength, 27), 251)
    }

    /// The LE features this controller reports (Vol 6, Part B, 4.6): LE Data Packet Length
    /// Extension and LE 2M PHY always, LE Extended Advertising when the extended commands are
    /// implemented.
    public var leFeatures: LEFeatures {
        var features: LEFeatures = [.leDataPacketLengthExtension, .le2MPHY]
        if supportsExtendedAdvertising { features.insert(.leExtendedAdvertising) }
        return features
    }

    /// The LMP features page 0 this controller reports (Vol 2, Part C, 3.3): LE Supported
    /// (Controller) and BR/EDR Not Supported.
    public var lmpFeatures: LMPFeatures { [.leSupportedController, .brEdrNotSupported] }
}
