import BLECore

/// Identity Address Information, code 0x09: the distributing device's identity address
/// (Core v5.4, Vol 3, Part H, 3.6.5).
///
/// Layout after the Code, 7 octets: AddrType (1), BD_ADDR (6, least significant octet first).
public struct SMPIdentityAddressInformation: Hashable, Sendable, CustomStringConvertible {
    /// Public, or static random.
    public var addressType: SMPIdentityAddressType
    /// The identity address.
    public var address: BluetoothAddress

    /// Identity Address Information for `address` of `addressType`.
    public init(addressType: SMPIdentityAddressType, address: BluetoothAddress) {
        self.addressType = addressType
        self.address = address
    }

    /// "random static FF:B8:37:72:4F:F8".
    public var description: String { "\(addressType) \(address)" }
}

extension SMPIdentityAddressInformation: SMPCommandLayout {
    init() { self.init(addressType: .public, address: .zero) }

    mutating func layout<C: FieldLayoutCoder>(_ c: inout C) throws(C.Failure) {
        try c.field(&addressType, "AddrType")
        try c.field(&address, "BD_ADDR")
    }
}
