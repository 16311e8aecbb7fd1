import BLE
import BLECore
import HCI

/// What `blectl serve` without `--bearer` was asked to do: the database file, the GAP Device
/// Name, the security every central's link must have, and the manufacturer data to advertise.
struct ServeOptions {
    var database: String
    var name: String
    /// `--security`: what every link must reach before ATT flows (kernel mode only).
    var security = SecurityLevel.none
    var manufacturer: ADManufacturerSpecificData?

    /// `--security`'s word for `security` in kernel mode: low, medium or high.
    static func word(_ security: SecurityLevel) -> String {
        switch security {
        case .none: return "low"
        case .encrypted: return "medium"
        case .authenticated: return "high"
        }
    }

    /// Parses "COMPANY:HEX" (COMPANY decimal or 0x-hex, e.g. 0xFFFF:0102).
    static func manufacturer(_ text: String) -> ADManufacturerSpecificData? {
        let parts = text.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
        guard parts.count == 2, let data = Hex.decode(parts[1]) else { return nil }
        let company = parts[0].lowercased().hasPrefix("0x") ? UInt16(parts[0].dropFirst(2), radix: 16) : UInt16(parts[0])
        return company.map { ADManufacturerSpecificData(companyIdentifier: $0, data: data) }
    }
}
