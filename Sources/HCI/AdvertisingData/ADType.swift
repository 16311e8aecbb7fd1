import BLECore

/// The AD type octet of an AD structure: the first octet of its Data field, which says how to
/// read the AD data that follows (Core v5.4, Vol 3, Part C, 11; values from Assigned Numbers 2.3,
/// formats from the Core Specification Supplement, Part A, 1).
///
/// Unknown and unassigned values are kept raw; ``name`` looks any value up in the generated
/// assigned numbers.
public struct ADType: RawRepresentable, Hashable, Sendable, Comparable, CustomStringConvertible {
    /// The AD type octet.
    public let rawValue: UInt8
    /// The AD type with this octet, assigned or not.
    @inlinable public init(rawValue: UInt8) { self.rawValue = rawValue }
    /// The AD type with this octet, assigned or not: `ADType(0x09)`.
    @inlinable public init(_ rawValue: UInt8) { self.rawValue = rawValue }

    /// 0x01: Flags (CSS Part A, 1.3).
    public static let flags = ADType(0x01)
    /// 0x02: Incomplete List of 16-bit Service or Service Class UUIDs (CSS Part A, 1.1).
    public static let incompleteServiceUUIDs16 = ADType(0x02)
    /// 0x03: Complete List of 16-bit Service or Service Class UUIDs (CSS Part A, 1.1).
    public static let completeServiceUUIDs16 = ADType(0x03)
    /// 0x04: Incomplete List of 32-bit Service or Service Class UUIDs (CSS Part A, 1.1).
    public static let incompleteServiceUUIDs32 = ADType(0x04)
    /// 0x05: Complete List of 32-bit Service or Service Class UUIDs (CSS Part A, 1.1).
    public static let completeServiceUUIDs32 = ADType(0x05)
    /// 0x06: Incomplete List of 128-bit Service or Service Class UUIDs (CSS Part A, 1.1).
    public static let incompleteServiceUUIDs128 = ADType(0x06)
    /// 0x07: Complete List of 128-bit Service or Service Class UUIDs (CSS Part A, 1.1).
    public static let completeServiceUUIDs128 = ADType(0x07)
    /// 0x08: Shortened Local Name (CSS Part A, 1.2).
    public static let shortenedLocalName = ADType(0x08)
    /// 0x09: Complete Local Name (CSS Part A, 1.2).
    public static let completeLocalName = ADType(0x09)
    /// 0x0A: Tx Power Level (CSS Part A, 1.5).
    public static let txPowerLevel = ADType(0x0A)
    /// 0x0D: Class of Device (CSS Part A, 1.6; out-of-band data only).
    public static let classOfDevice = ADType(0x0D)
    /// 0x12: Peripheral Connection Interval Range (CSS Part A, 1.9).
    public static let peripheralConnectionIntervalRange = ADType(0x12)
    /// 0x14: List of 16-bit Service Solicitation UUIDs (CSS Part A, 1.10).
    public static let serviceSolicitationUUIDs16 = ADType(0x14)
    /// 0x15: List of 128-bit Service Solicitation UUIDs (CSS Part A, 1.10).
    public static let serviceSolicitationUUIDs128 = ADType(0x15)
    /// 0x16: Service Data - 16-bit UUID (CSS Part A, 1.11).
    public static let serviceData16 = ADType(0x16)
    /// 0x17: Public Target Address (CSS Part A, 1.13).
    public static let publicTargetAddress = ADType(0x17)
    /// 0x18: Random Target Address (CSS Part A, 1.14).
    public static let randomTargetAddress = ADType(0x18)
    /// 0x19: Appearance (CSS Part A, 1.12).
    public static let appearance = ADType(0x19)
    /// 0x1A: Advertising Interval (CSS Part A, 1.15).
    public static let advertisingInterval = ADType(0x1A)
    /// 0x1B: LE Bluetooth Device Address (CSS Part A, 1.16; out-of-band data only).
    public static let leBluetoothDeviceAddress = ADType(0x1B)
    /// 0x1C: LE Role (CSS Part A, 1.17).
    public static let leRole = ADType(0x1C)
    /// 0x1F: List of 32-bit Service Solicitation UUIDs (CSS Part A, 1.10).
    public static let serviceSolicitationUUIDs32 = ADType(0x1F)
    /// 0x20: Service Data - 32-bit UUID (CSS Part A, 1.11).
    public static let serviceData32 = ADType(0x20)
    /// 0x21: Service Data - 128-bit UUID (CSS Part A, 1.11).
    public static let serviceData128 = ADType(0x21)
    /// 0x24: URI (CSS Part A, 1.18).
    public static let uri = ADType(0x24)
    /// 0x27: LE Supported Features (CSS Part A, 1.19).
    public static let leSupportedFeatures = ADType(0x27)
    /// 0x2F: Advertising Interval - long (CSS Part A, 1.15).
    public static let advertisingIntervalLong = ADType(0x2F)
    /// 0xFF: Manufacturer Specific Data (CSS Part A, 1.4).
    public static let manufacturerSpecificData = ADType(0xFF)

    /// The Bluetooth SIG name of this AD type from the assigned numbers, nil when unassigned.
    ///
    /// 0x10 is assigned twice (Device ID in EIR, Security Manager TK Value in OOB data); the
    /// generated table gives the second.
    public var name: String? { AssignedNumbers.adTypeName(rawValue) }

    /// "Flags (0x01)", or "AD type 0x3F" for an unassigned value.
    public var description: String {
        let hex = "0x" + Hex.encode(CollectionOfOne(rawValue)).uppercased()
        if let name { return "\(name) (\(hex))" }
        return "AD type \(hex)"
    }

    /// Orders AD types by value.
    public static func < (lhs: Self, rhs: Self) -> Bool { lhs.rawValue < rhs.rawValue }

    /// How many AD data octets this type allows, from the Core Specification Supplement, Part A.
    /// The decoder checks every structure against it; types without a typed decoder accept any
    /// length.
    public var dataLayout: ADDataLayout {
        switch rawValue {
        case 0x01: return .any                                  // Flags: zero or more octets (CSS Part A 1.3.1)
        case 0x02, 0x03, 0x14: return .multiple(of: 2)          // 16-bit UUID lists
        case 0x04, 0x05, 0x1F: return .multiple(of: 4)          // 32-bit UUID lists
        case 0x06, 0x07, 0x15: return .multiple(of: 16)         // 128-bit UUID lists
        case 0x0A, 0x1C: return .exactly(1)                     // Tx Power Level, LE Role
        case 0x12: return .exactly(4)                           // Peripheral Connection Interval Range
        case 0x16: return .atLeast(2)                           // Service Data - 16-bit UUID
        case 0x20: return .atLeast(4)                           // Service Data - 32-bit UUID
        case 0x21: return .atLeast(16)                          // Service Data - 128-bit UUID
        case 0x17, 0x18: return .multiple(of: 6)                // Public/Random Target Address
        case 0x19, 0x1A: return .exactly(2)                     // Appearance, Advertising Interval
        case 0x2F: return .either(3, 4)                         // Advertising Interval - long
        case 0x24: return .atLeast(1)                           // URI: at least the scheme code point
        case 0xFF: return .atLeast(2)                           // Manufacturer Specific Data: Company ID
        default: return .any                                    // names, features, and the rest
        }
    }
}

/// The AD data lengths an AD type allows (Core Specification Supplement, Part A, 1), checked
/// against every structure the decoder reads.
public enum ADDataLayout: Hashable, Sendable, CustomStringConvertible {
    /// Any number of octets, including none.
    case any
    /// Exactly this many octets.
    case exactly(Int)
    /// Either of two lengths (Advertising Interval - long: 3 or 4 octets).
    case either(Int, Int)
    /// At least this many octets.
    case atLeast(Int)
    /// A whole number (zero or more) of entries of this many octets: UUID and address lists.
    case multiple(of: Int)

    /// Whether `count` AD data octets fit this layout.
    @inlinable
    public func accepts(_ count: Int) -> Bool {
        switch self {
        case .any: return true
        case .exactly(let n): return count == n
        case .either(let a, let b): return count == a || count == b
        case .atLeast(let n): return count >= n
        case .multiple(let n): return count % n == 0
        }
    }

    /// "exactly 1 octet", "at least 2 octets", "a multiple of 16 octets".
    public var description: String {
        switch self {
        case .any: return "any number of octets"
        case .exactly(let n): return "exactly \(n) octet\(n == 1 ? "" : "s")"
        case .either(let a, let b): return "\(a) or \(b) octets"
        case .atLeast(let n): return "at least \(n) octet\(n == 1 ? "" : "s")"
        case .multiple(let n): return "a multiple of \(n) octets"
        }
    }
}
