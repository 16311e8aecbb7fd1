import BLECore
import CBluetoothLinux

/// One Bluetooth adapter (controller) as the kernel lists it: `hciN`, its public address, whether
/// it is up, and whether its controller supports LE.
public struct HCIAdapterInfo: Hashable, Sendable, CustomStringConvertible {
    /// The controller index N of hciN.
    public var index: UInt16
    /// The kernel's name for it ("hci0").
    public var name: String
    /// The controller's public device address (BD_ADDR); 00:00:00:00:00:00 before it was ever
    /// powered.
    public var address: BluetoothAddress
    /// Whether the kernel has the adapter up (HCI_UP in the device flags).
    public var isUp: Bool
    /// Whether the controller reports LE Supported (Controller), LMP feature bit 38 (Core v5.4,
    /// Vol 2, Part C, 3.3): octet 4, bit 6 of the LMP features the kernel read at set-up.
    public var supportsLE: Bool

    /// An adapter from the kernel's fields: `flags` as hci_dev_info.flags, `lmpFeatures` the 8
    /// octets of LMP features page 0 (fewer are read as zero).
    public init(index: UInt16, name: String, address: BluetoothAddress, flags: UInt32, lmpFeatures: [UInt8]) {
        self.index = index
        self.name = name
        self.address = address
        isUp = flags & (1 << HCI_UP) != 0
        supportsLE = lmpFeatures.count > 4 && lmpFeatures[4] & 0x40 != 0
    }

    /// An adapter from ioctl(HCIGETDEVINFO)'s `struct hci_dev_info`.
    init(_ info: hci_dev_info) {
        let name = withUnsafeBytes(of: info.name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        let address = withUnsafeBytes(of: info.bdaddr) { BluetoothAddress(littleEndianOctets: $0) } ?? BluetoothAddress(0)
        let features = withUnsafeBytes(of: info.features) { Array($0) }
        self.init(index: info.dev_id, name: name, address: address, flags: info.flags, lmpFeatures: features)
    }

    /// "hci0 00:AA:01:00:00:00 up LE".
    public var description: String {
        "\(name) \(address) \(isUp ? "up" : "down")\(supportsLE ? " LE" : " (no LE)")"
    }
}
