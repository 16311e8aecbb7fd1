import BLECore

/// Manufacturer Specific Data (AD type 0xFF, CSS Part A, 1.4): a Company Identifier Code
/// (2 octets, little-endian, from the Assigned Numbers company identifiers) followed by data
/// whose format the company defines.
///
/// Fewer than 2 AD data octets cannot hold the Company ID; the decoder keeps such a structure
/// raw with a diagnostic.
public struct ADManufacturerSpecificData: Hashable, Sendable, CustomStringConvertible {
    /// The Company Identifier Code, for example 0x004C (Apple, Inc.).
    public let companyIdentifier: UInt16
    /// The octets after the Company ID, as sent.
    public let data: [UInt8]

    /// Manufacturer Specific Data for `companyIdentifier` carrying `data`.
    public init(companyIdentifier: UInt16, data: [UInt8]) {
        self.companyIdentifier = companyIdentifier
        self.data = data
    }

    /// Reads the Company ID and the data; nil when fewer than 2 octets.
    init?(decoding octets: ArraySlice<UInt8>) {
        guard octets.count >= 2 else { return nil }
        let i = octets.startIndex
        companyIdentifier = UInt16(octets[i]) | UInt16(octets[i + 1]) << 8
        data = Array(octets[(i + 2)...])
    }

    /// The company that owns ``companyIdentifier``, from the assigned numbers; nil when unassigned.
    public var companyName: String? { AssignedNumbers.companyName(companyIdentifier) }

    var dataCount: Int { 2 + data.count }

    func write(to w: inout ByteWriter) {
        w.writeUInt16(companyIdentifier)
        w.writeBytes(data)
    }

    /// "0x004C (Apple, Inc.) 0215..." (the data in hexadecimal).
    public var description: String {
        var out = TextOutput(capacity: 64 + 2 * data.count)
        writeDescription(to: &out)
        return out.string
    }

    /// Appends ``description`` to `out`.
    public func writeDescription(to out: inout TextOutput) {
        data.withUnsafeBufferPointer { Self.writeDescription(companyIdentifier: companyIdentifier, data: $0, to: &out) }
    }

    /// Appends the ``description`` of Manufacturer Specific Data for `companyIdentifier` with
    /// `data` to `out`: the text of the typed value, written from the octets as received.
    static func writeDescription(companyIdentifier: UInt16, data: UnsafeBufferPointer<UInt8>, to out: inout TextOutput) {
        out.write("0x")
        out.writeHex(UInt64(companyIdentifier), digits: 4, uppercase: true)
        out.write(" (")
        if AssignedNumbers.writeCompanyName(companyIdentifier, to: &out) {
            out.write(octet: UInt8(ascii: ")"))
        } else {
            out.removeLast(2)   // unassigned: no parentheses
        }
        if !data.isEmpty {
            out.write(octet: UInt8(ascii: " "))
            out.writeHex(data)
        }
    }
}
