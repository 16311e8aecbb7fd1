import BLECore

/// HCI_LE_Add_Device_To_Filter_Accept_List, opcode 0x2011 (Core v5.4, Vol 4, Part E, 7.8.16):
/// adds a device to the Filter Accept List (Memory Capacity Exceeded when it is full). Command Disallowed while a scan, an advertising set or an initiator uses the list.
/// Returns Status.
///
/// Parameters: Address_Type (1: public, random, or 0xFF anonymous advertisements), Address (6).
public struct HCILEAddDeviceToFilterAcceptList: HCICommand {
    /// Command Complete returns only Status.
    public typealias ReturnParameters = HCIStatusReturnParameters
    /// Opcode 0x2011.
    public static var opcode: HCIOpcode { .leAddDeviceToFilterAcceptList }

    /// Address_Type: 0x00 public, 0x01 random, 0xFF devices sending anonymous advertisements.
    public var addressType: LEAddressType
    /// Address (ignored for anonymous advertisements).
    public var address: BluetoothAddress

    /// The command for the device at `address`.
    public init(addressType: LEAddressType, address: BluetoothAddress) {
        self.addressType = addressType
        self.address = address
    }

    /// Every field zero or empty: the value decoding starts from.
    public init() { self.init(addressType: .public, address: .zero) }

    /// Hands the fields above to `coder` in the order and sizes listed (see ``HCIParameterLayout/layout(_:)``).
    public mutating func layout<C: HCIParameterCoder>(_ coder: inout C) throws(C.Failure) {
        try coder.code(&addressType, "Address_Type")
        try coder.code(&address, "Address")
    }
}
