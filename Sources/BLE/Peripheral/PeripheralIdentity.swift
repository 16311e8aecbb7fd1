import BLECore
import Foundation
import HCI

extension Peripheral {
    /// Whether a peer's identity address is a public device address or a random one (Core v5.4,
    /// Vol 6, Part B, 1.3).
    public enum AddressType: Hashable, Sendable, CustomStringConvertible {
        /// A public device address (from an IEEE OUI).
        case `public`
        /// A random device address (static, or the identity a resolvable private address resolves to).
        case random

        /// "public" or "random".
        public var description: String { self == .public ? "public" : "random" }

        /// The HCI Peer_Address_Type for this type.
        var leAddressType: LEAddressType { self == .public ? .public : .random }

        /// The type of an HCI address type: public and public identity are public; the rest random.
        init(_ type: LEAddressType) {
            self = (type == .public || type == .publicIdentity) ? .public : .random
        }
    }

    /// The first eight octets of every identifier: "LinBLE" in ASCII, then the version octet.
    private static let identifierPrefix: [UInt8] = [0x4C, 0x69, 0x6E, 0x42, 0x4C, 0x45, 0x80, 0x00]

    /// The identifier of the device whose identity address is `address` of `type`: the same on
    /// every run and every machine, derived from the address's seven octets alone.
    ///
    /// It is an RFC 9562 version 8 (custom) UUID laid out so that it reads as what it names:
    ///
    /// | octets | content |
    /// |---|---|
    /// | 0-5 | "LinBLE" in ASCII (4C 69 6E 42 4C 45) |
    /// | 6-7 | 80 00: version 8 |
    /// | 8 | 80: the RFC 9562 variant |
    /// | 9 | the address type: 00 public, 01 random |
    /// | 10-15 | the address, most significant octet first |
    ///
    /// so EA:59:24:0E:82:34 (random) is `4C696E42-4C45-8000-8001-EA59240E8234`. Because it is
    /// reversible, ``CentralManager/retrievePeripherals(withIdentifiers:)`` gives a peripheral
    /// for an identifier saved on an earlier run without scanning. For a bonded device that
    /// uses resolvable private addresses the identity address is the resolved one (pairing in
    /// host mode is still to come).
    public static func identifier(for address: BluetoothAddress, type: AddressType) -> UUID {
        var octets = identifierPrefix + [0x80, type == .public ? 0x00 : 0x01]
        octets += (0..<6).map { UInt8(truncatingIfNeeded: address.value >> (40 - 8 * UInt64($0))) }
        return UUID(uuid: (octets[0], octets[1], octets[2], octets[3], octets[4], octets[5], octets[6], octets[7],
                           octets[8], octets[9], octets[10], octets[11], octets[12], octets[13], octets[14], octets[15]))
    }

    /// The address and type an identifier of ``identifier(for:type:)`` names; nil for any other UUID.
    static func identity(of identifier: UUID) -> (address: BluetoothAddress, type: AddressType)? {
        let u = identifier.uuid
        let octets = [u.0, u.1, u.2, u.3, u.4, u.5, u.6, u.7, u.8, u.9, u.10, u.11, u.12, u.13, u.14, u.15]
        guard Array(octets[0..<8]) == identifierPrefix, octets[8] == 0x80, octets[9] <= 0x01 else { return nil }
        let value = octets[10...].reduce(UInt64(0)) { $0 << 8 | UInt64($1) }
        return (BluetoothAddress(value), octets[9] == 0x00 ? .public : .random)
    }
}
