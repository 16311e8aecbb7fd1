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
        var text = ""
        appendDescription(to: &text)
        return text
    }

    /// Appends ``description`` to `text`, without a string of its own.
    public func appendDescription(to text: inout String) {
        text += "0x"
        text += ADText.hex(companyIdentifier)
        if let name = AssignedNumbers.companyNameText(companyIdentifier) {
            text += " ("
            text += name
            text += ")"
        }
        if !data.isEmpty {
            text += " "
            Hex.append(data, to: &text)
        }
    }
}
