import BLECore

/// The Flags AD data (AD type 0x01, CSS Part A, 1.3; Core v5.4, Vol 3, Part C, 9.2 and 11):
/// the discoverable mode and BR/EDR support of the advertiser.
///
/// Bits: 0 LE Limited Discoverable Mode, 1 LE General Discoverable Mode, 2 BR/EDR Not Supported,
/// 3 Simultaneous LE and BR/EDR to Same Device Capable (Controller), 4 Previously Used (was
/// "Simultaneous LE and BR/EDR to Same Device Capable (Host)" before CSS v10), 5...7 reserved.
/// Reserved bits are kept as received.
///
/// The Supplement lets the Flags field be zero or more octets long, so it can grow; every bit
/// defined today sits in the first octet. The decoder gives ``ADStructure/flags(_:)`` for one
/// octet and keeps any other length raw as ``ADStructure/other(type:data:)`` (legal, no
/// diagnostic); ``AdvertisingData/flags`` reads either.
public struct ADFlags: RawRepresentable, OptionSet, Hashable, Sendable, CustomStringConvertible {
    /// The Flags octet.
    public let rawValue: UInt8
    /// Flags from their octet; reserved bits are kept.
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }

    /// Bit 0: LE Limited Discoverable Mode.
    public static let leLimitedDiscoverableMode = ADFlags(rawValue: 0x01)
    /// Bit 1: LE General Discoverable Mode.
    public static let leGeneralDiscoverableMode = ADFlags(rawValue: 0x02)
    /// Bit 2: BR/EDR Not Supported.
    public static let brEDRNotSupported = ADFlags(rawValue: 0x04)
    /// Bit 3: Simultaneous LE and BR/EDR to Same Device Capable (Controller).
    public static let simultaneousLEAndBREDRController = ADFlags(rawValue: 0x08)
    /// Bit 4: "Previously Used" since CSS v10; before, Simultaneous LE and BR/EDR to Same Device
    /// Capable (Host).
    public static let simultaneousLEAndBREDRHost = ADFlags(rawValue: 0x10)
    /// Bits 5...7, reserved for future use.
    public static let reserved = ADFlags(rawValue: 0xE0)

    /// "0x06 (LE General Discoverable, BR/EDR Not Supported)"; "0x00" when no bit is set.
    public var description: String {
        var out = TextOutput(capacity: 64)
        writeDescription(to: &out)
        return out.string
    }

    /// Appends ``description`` to `out`.
    public func writeDescription(to out: inout TextOutput) {
        out.write("0x")
        out.writeHex(UInt64(rawValue), digits: 2, uppercase: true)
        var first = true
        func name(_ words: StaticString) {
            out.write(first ? " (" : ", ")
            first = false
            out.write(words)
        }
        if contains(.leLimitedDiscoverableMode) { name("LE Limited Discoverable") }
        if contains(.leGeneralDiscoverableMode) { name("LE General Discoverable") }
        if contains(.brEDRNotSupported) { name("BR/EDR Not Supported") }
        if contains(.simultaneousLEAndBREDRController) { name("LE and BR/EDR Controller") }
        if contains(.simultaneousLEAndBREDRHost) { name("LE and BR/EDR Host (previously used)") }
        if !intersection(.reserved).isEmpty {
            name("reserved 0x")
            out.writeHex(UInt64(rawValue & 0xE0), digits: 2, uppercase: true)
        }
        if !first { out.write(octet: UInt8(ascii: ")")) }
    }
}
