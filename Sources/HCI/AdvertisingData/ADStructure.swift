import BLECore

/// One AD structure, decoded: its AD type and its AD data as a typed value
/// (Core v5.4, Vol 3, Part C, 11; formats from the Core Specification Supplement, Part A).
///
/// On the wire every structure is Length (1 octet: the AD type and AD data octets that follow),
/// AD type (1 octet), AD data (Length - 1 octets). Each case below is one AD type (or a family
/// that differs only by UUID width or completeness); any other type is kept raw in ``other(type:data:)``.
/// Decoding and encoding both go through this one enum, so they cannot disagree.
public enum ADStructure: Hashable, Sendable, CustomStringConvertible {
    /// 0x01 Flags (1 octet).
    case flags(ADFlags)
    /// 0x02...0x07: incomplete or complete list of 16-, 32- or 128-bit service UUIDs.
    case serviceUUIDs(ADUUIDList, isComplete: Bool)
    /// 0x08 Shortened or 0x09 Complete Local Name.
    case localName(ADLocalName)
    /// 0x0A Tx Power Level: the transmitted power of the packet in dBm, -127...+127 (1 octet, signed).
    case txPowerLevel(Int8)
    /// 0x12 Peripheral Connection Interval Range (4 octets).
    case peripheralConnectionIntervalRange(ADPeripheralConnectionIntervalRange)
    /// 0x14, 0x1F, 0x15: list of 16-, 32- or 128-bit Service Solicitation UUIDs.
    case serviceSolicitation(ADUUIDList)
    /// 0x16, 0x20, 0x21: Service Data for a 16-, 32- or 128-bit UUID.
    case serviceData(ADServiceData)
    /// 0x17 Public Target Address: public device addresses (6 octets each) the advertising is meant for.
    case publicTargetAddresses([BluetoothAddress])
    /// 0x18 Random Target Address: random device addresses (6 octets each) the advertising is meant for.
    case randomTargetAddresses([BluetoothAddress])
    /// 0x19 Appearance (2 octets).
    case appearance(ADAppearance)
    /// 0x1A Advertising Interval (2 octets) or 0x2F Advertising Interval - long (3 or 4 octets).
    case advertisingInterval(ADAdvertisingInterval)
    /// 0x1C LE Role (1 octet).
    case leRole(ADLERole)
    /// 0x24 URI.
    case uri(ADURI)
    /// 0x27 LE Supported Features.
    case leSupportedFeatures(ADLESupportedFeatures)
    /// 0xFF Manufacturer Specific Data.
    case manufacturerSpecificData(ADManufacturerSpecificData)
    /// Any other AD type, its AD data kept as sent. Encoding writes `type` and `data` as given,
    /// even for a type listed above.
    case other(type: ADType, data: [UInt8])

    /// The AD type this structure is sent as.
    public var type: ADType {
        switch self {
        case .flags: return .flags
        case let .serviceUUIDs(list, complete):
            switch list.width {
            case .bits16: return complete ? .completeServiceUUIDs16 : .incompleteServiceUUIDs16
            case .bits32: return complete ? .completeServiceUUIDs32 : .incompleteServiceUUIDs32
            case .bits128: return complete ? .completeServiceUUIDs128 : .incompleteServiceUUIDs128
            }
        case .localName(let name): return name.type
        case .txPowerLevel: return .txPowerLevel
        case .peripheralConnectionIntervalRange: return .peripheralConnectionIntervalRange
        case .serviceSolicitation(let list):
            switch list.width {
            case .bits16: return .serviceSolicitationUUIDs16
            case .bits32: return .serviceSolicitationUUIDs32
            case .bits128: return .serviceSolicitationUUIDs128
            }
        case .serviceData(let sd): return sd.type
        case .publicTargetAddresses: return .publicTargetAddress
        case .randomTargetAddresses: return .randomTargetAddress
        case .appearance: return .appearance
        case .advertisingInterval(let interval): return interval.type
        case .leRole: return .leRole
        case .uri: return .uri
        case .leSupportedFeatures: return .leSupportedFeatures
        case .manufacturerSpecificData: return .manufacturerSpecificData
        case .other(let type, _): return type
        }
    }

    /// The number of AD data octets (the Length octet is this plus one, for the AD type).
    public var dataCount: Int {
        switch self {
        case .flags, .txPowerLevel, .leRole: return 1
        case .serviceUUIDs(let list, _), .serviceSolicitation(let list): return list.dataCount
        case .localName(let name): return name.bytes.count
        case .peripheralConnectionIntervalRange: return 4
        case .serviceData(let sd): return sd.dataCount
        case .publicTargetAddresses(let a), .randomTargetAddresses(let a): return 6 * a.count
        case .appearance: return 2
        case .advertisingInterval(let interval): return interval.octetCount
        case .uri(let uri): return uri.dataCount
        case .leSupportedFeatures(let f): return f.bytes.count
        case .manufacturerSpecificData(let m): return m.dataCount
        case .other(_, let data): return data.count
        }
    }

    /// The octets the structure occupies in a payload: Length, AD type and AD data.
    public var encodedLength: Int { 2 + dataCount }

    /// The largest AD data a structure can carry: the Length octet counts the AD type too, so
    /// 255 - 1 octets.
    public static let maximumDataCount = 254

    /// Appends Length, AD type and AD data. The caller has checked ``dataCount`` ≤ 254.
    func write(to w: inout ByteWriter) {
        w.writeUInt8(UInt8(truncatingIfNeeded: 1 + dataCount))
        w.writeUInt8(type.rawValue)
        switch self {
        case .flags(let f): w.writeUInt8(f.rawValue)
        case .serviceUUIDs(let list, _), .serviceSolicitation(let list): list.write(to: &w)
        case .localName(let name): w.writeBytes(name.bytes)
        case .txPowerLevel(let dBm): w.writeUInt8(UInt8(bitPattern: dBm))
        case .peripheralConnectionIntervalRange(let range): range.write(to: &w)
        case .serviceData(let sd): sd.write(to: &w)
        case .publicTargetAddresses(let a), .randomTargetAddresses(let a): for address in a { address.write(to: &w) }
        case .appearance(let appearance): w.writeUInt16(appearance.rawValue)
        case .advertisingInterval(let interval): interval.write(to: &w)
        case .leRole(let role): w.writeUInt8(role.rawValue)
        case .uri(let uri): uri.write(to: &w)
        case .leSupportedFeatures(let f): w.writeBytes(f.bytes)
        case .manufacturerSpecificData(let m): m.write(to: &w)
        case .other(_, let data): w.writeBytes(data)
        }
    }

    /// Length, AD type and AD data of this one structure.
    ///
    /// - Throws: ``ADEncodingError/dataTooLong(type:index:count:)`` (index 0) when the AD data
    ///   exceed 254 octets.
    public func encoded() throws(ADEncodingError) -> [UInt8] {
        guard dataCount <= Self.maximumDataCount else {
            throw .dataTooLong(type: type, index: 0, count: dataCount)
        }
        var w = ByteWriter(capacity: encodedLength)
        write(to: &w)
        return w.bytes
    }

    /// Decodes AD data of `type`. For a type with a typed decoder, the data must fit the type's
    /// ``ADType/dataLayout`` (a list keeps its whole entries and ignores a partial last one);
    /// otherwise the result is nil. Types without a typed decoder give ``other(type:data:)``.
    /// Never traps, whatever the octets.
    public init?(type: ADType, data: ArraySlice<UInt8>) {
        let count = data.count
        let layout = type.dataLayout
        if case .multiple = layout {} else if !layout.accepts(count) { return nil }
        let i = data.startIndex
        switch type.rawValue {
        case 0x01:
            // The Flags field "may be zero or more octets long" (CSS Part A, 1.3.1); every bit
            // defined today is in the first octet. Other lengths are legal and kept raw.
            guard count == 1 else { self = .other(type: type, data: Array(data)); return }
            self = .flags(ADFlags(rawValue: data[i]))
        case 0x02, 0x03: self = .serviceUUIDs(ADUUIDList(decoding: data, width: .bits16), isComplete: type.rawValue == 0x03)
        case 0x04, 0x05: self = .serviceUUIDs(ADUUIDList(decoding: data, width: .bits32), isComplete: type.rawValue == 0x05)
        case 0x06, 0x07: self = .serviceUUIDs(ADUUIDList(decoding: data, width: .bits128), isComplete: type.rawValue == 0x07)
        case 0x08, 0x09: self = .localName(ADLocalName(bytes: Array(data), isComplete: type.rawValue == 0x09))
        case 0x0A: self = .txPowerLevel(Int8(bitPattern: data[i]))
        case 0x12:
            guard let range = ADPeripheralConnectionIntervalRange(decoding: data) else { return nil }
            self = .peripheralConnectionIntervalRange(range)
        case 0x14: self = .serviceSolicitation(ADUUIDList(decoding: data, width: .bits16))
        case 0x1F: self = .serviceSolicitation(ADUUIDList(decoding: data, width: .bits32))
        case 0x15: self = .serviceSolicitation(ADUUIDList(decoding: data, width: .bits128))
        case 0x16, 0x20, 0x21:
            let width: BluetoothUUID.Width = type.rawValue == 0x16 ? .bits16 : type.rawValue == 0x20 ? .bits32 : .bits128
            guard let sd = ADServiceData(decoding: data, width: width) else { return nil }
            self = .serviceData(sd)
        case 0x17: self = .publicTargetAddresses(Self.addresses(data))
        case 0x18: self = .randomTargetAddresses(Self.addresses(data))
        case 0x19: self = .appearance(ADAppearance(rawValue: UInt16(data[i]) | UInt16(data[i + 1]) << 8))
        case 0x1A, 0x2F:
            guard let interval = ADAdvertisingInterval(decoding: data),
                  interval.type == type else { return nil }
            self = .advertisingInterval(interval)
        case 0x1C: self = .leRole(ADLERole(rawValue: data[i]))
        case 0x24:
            guard let uri = ADURI(decoding: data) else { return nil }
            self = .uri(uri)
        case 0x27: self = .leSupportedFeatures(ADLESupportedFeatures(bytes: Array(data)))
        case 0xFF:
            guard let m = ADManufacturerSpecificData(decoding: data) else { return nil }
            self = .manufacturerSpecificData(m)
        default: self = .other(type: type, data: Array(data))
        }
    }

    /// The whole 6-octet addresses in `data`.
    static func addresses(_ data: ArraySlice<UInt8>) -> [BluetoothAddress] {
        var out: [BluetoothAddress] = []
        out.reserveCapacity(data.count / 6)
        var i = data.startIndex
        while data.endIndex - i >= 6 {
            var v: UInt64 = 0
            for k in 0..<6 { v |= UInt64(data[i + k]) << UInt64(8 * k) }
            out.append(BluetoothAddress(v))
            i += 6
        }
        return out
    }

    /// One line, as a capture tool prints it: `Flags 0x06 (LE General Discoverable, BR/EDR Not Supported)`,
    /// `Complete Local Name "ABCD"`, `16-bit UUIDs 180D (Heart Rate)`.
    public var description: String {
        var out = TextOutput(capacity: 64)
        writeDescription(to: &out)
        return out.string
    }

    /// Appends ``description`` to `out`; the structures advertisers send most (Flags, service
    /// UUIDs, a local name, Tx Power Level, Service Data, Manufacturer Specific Data, raw types)
    /// without a string of their own.
    public func writeDescription(to out: inout TextOutput) {
        switch self {
        case .flags(let f):
            out.write("Flags ")
            f.writeDescription(to: &out)
        case let .serviceUUIDs(list, complete):
            if !complete { out.write("Incomplete ") }
            out.write(list.widthName)
            out.write(" UUIDs ")
            list.writeDescription(to: &out)
        case .localName(let name):
            out.write(name.isComplete ? "Complete Local Name " : "Shortened Local Name ")
            name.writeDescription(to: &out)
        case .txPowerLevel(let dBm):
            Self.writeTxPowerLevel(dBm, to: &out)
        case .serviceSolicitation(let list):
            out.write("Solicited ")
            out.write(list.widthName)
            out.write(" UUIDs ")
            list.writeDescription(to: &out)
        case .serviceData(let sd):
            out.write("Service Data ")
            sd.writeDescription(to: &out)
        case .manufacturerSpecificData(let m):
            out.write("Manufacturer Specific Data ")
            m.writeDescription(to: &out)
        case let .other(type, data):
            data.withUnsafeBufferPointer { Self.writeOther(type: type, data: $0, to: &out) }
        case .peripheralConnectionIntervalRange(let range):
            out.write("Peripheral Connection Interval Range ")
            out.write(string: range.description)
        case .publicTargetAddresses(let a):
            out.write("Public Target Address ")
            Self.writeAddresses(a, to: &out)
        case .randomTargetAddresses(let a):
            out.write("Random Target Address ")
            Self.writeAddresses(a, to: &out)
        case .appearance(let appearance):
            out.write("Appearance ")
            out.write(string: appearance.description)
        case .advertisingInterval(let interval):
            out.write(interval.octetCount == 2 ? "Advertising Interval " : "Advertising Interval - long ")
            out.write(string: interval.description)
        case .leRole(let role):
            out.write("LE Role ")
            out.write(string: role.description)
        case .uri(let uri):
            out.write("URI ")
            out.write(string: uri.description)
        case .leSupportedFeatures(let f):
            out.write("LE Supported Features ")
            out.write(string: f.description)
        }
    }

    /// The addresses, ", " between them.
    static func writeAddresses(_ addresses: [BluetoothAddress], to out: inout TextOutput) {
        for (i, address) in addresses.enumerated() {
            if i > 0 { out.write(", ") }
            address.writeDescription(to: &out)
        }
    }

    /// "Tx Power Level -8 dBm".
    static func writeTxPowerLevel(_ dBm: Int8, to out: inout TextOutput) {
        out.write("Tx Power Level ")
        out.writeDecimal(Int(dBm))
        out.write(" dBm")
    }

    /// The AD type's description, then the AD data in hexadecimal when there are any:
    /// "Mesh Beacon (0x2B) 0011".
    static func writeOther(type: ADType, data: UnsafeBufferPointer<UInt8>, to out: inout TextOutput) {
        out.write(string: type.description)
        if !data.isEmpty {
            out.write(octet: UInt8(ascii: " "))
            out.writeHex(data)
        }
    }

}

/// Why a set of typed AD structures could not be encoded.
public enum ADEncodingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The structure at `index` has `count` AD data octets; one Length octet can describe at
    /// most 254 (Core v5.4, Vol 3, Part C, 11).
    case dataTooLong(type: ADType, index: Int, count: Int)

    /// "AD structure 1 (Manufacturer Specific Data (0xFF)) has 255 AD data octets, at most 254 fit".
    public var description: String {
        switch self {
        case let .dataTooLong(type, index, count):
            return "AD structure \(index) (\(type)) has \(count) AD data octets, at most \(ADStructure.maximumDataCount) fit"
        }
    }
}
