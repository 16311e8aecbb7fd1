import BLECore

/// Typed views of the structures an application asks for most (CSS Part A, 1). Each decodes only
/// the elements of the types it reads. Malformed structures are skipped, except lists with a
/// partial last entry, whose whole entries count. When a type appears more than once (the
/// Supplement says most may appear at most once, CSS Part A, 1, Table 1.1), the single-value
/// views return the first.
extension AdvertisingData {
    /// The elements whose AD type is `type`, in payload order.
    public func elements(ofType type: ADType) -> [ADElement] {
        elements.filter { $0.type == type }
    }

    /// The decoded structures whose AD type is `type`, in payload order.
    public func structures(ofType type: ADType) -> [ADStructure] {
        elements.compactMap { $0.type == type ? $0.structure : nil }
    }

    /// The first decoded structure of `type`.
    public func firstStructure(ofType type: ADType) -> ADStructure? {
        for e in elements where e.type == type {
            if let s = e.structure { return s }
        }
        return nil
    }

    /// Decoded structures whose AD type raw value satisfies `isWanted`, in payload order.
    func decoded(where isWanted: (UInt8) -> Bool) -> [ADStructure] {
        var out: [ADStructure] = []
        for e in elements {
            guard let t = e.type, isWanted(t.rawValue), let s = e.structure else { continue }
            out.append(s)
        }
        return out
    }

    /// The Flags (0x01). A Flags field of zero octets means no flag is set; of more than one,
    /// the first octet holds every bit defined today (CSS Part A, 1.3.1).
    public var flags: ADFlags? {
        switch firstStructure(ofType: .flags) {
        case .flags(let f)?: return f
        case .other(_, let data)?: return ADFlags(rawValue: data.first ?? 0)
        default: return nil
        }
    }

    /// The Complete Local Name (0x09) if there is one, else the Shortened Local Name (0x08).
    public var localName: ADLocalName? {
        if case .localName(let n)? = firstStructure(ofType: .completeLocalName) { return n }
        if case .localName(let n)? = firstStructure(ofType: .shortenedLocalName) { return n }
        return nil
    }

    /// ``localName``'s ``ADLocalName/string``, read from the element's octets without decoding
    /// the structure: the first well-formed Complete Local Name, else the first well-formed
    /// Shortened one (a name structure is malformed only when it runs past the payload).
    public var localNameString: String? {
        func name(_ type: ADType) -> String? {
            for e in elements where e.type == type && e.diagnostic == nil {
                return String(decoding: e.data, as: UTF8.self)
            }
            return nil
        }
        return name(.completeLocalName) ?? name(.shortenedLocalName)
    }

    /// Every service UUID from the 16-, 32- and 128-bit lists (0x02...0x07), complete or not, in
    /// payload order.
    public var serviceUUIDs: [BluetoothUUID] {
        var out: [BluetoothUUID] = []
        for case let .serviceUUIDs(list, _) in decoded(where: { $0 >= 0x02 && $0 <= 0x07 }) {
            out.append(contentsOf: list.uuids)
        }
        return out
    }

    /// Whether the advertiser says a service UUID list of `width` is complete (AD types 0x03,
    /// 0x05, 0x07), so a service of that width that is not listed is not offered.
    public func hasCompleteServiceUUIDList(width: BluetoothUUID.Width) -> Bool {
        let type: ADType
        switch width {
        case .bits16: type = .completeServiceUUIDs16
        case .bits32: type = .completeServiceUUIDs32
        case .bits128: type = .completeServiceUUIDs128
        }
        return elements.contains { $0.type == type && $0.structure != nil }
    }

    /// Every UUID from the Service Solicitation lists (0x14, 0x1F, 0x15), in payload order.
    public var solicitedServiceUUIDs: [BluetoothUUID] {
        var out: [BluetoothUUID] = []
        for case let .serviceSolicitation(list) in decoded(where: { $0 == 0x14 || $0 == 0x1F || $0 == 0x15 }) {
            out.append(contentsOf: list.uuids)
        }
        return out
    }

    /// Every Manufacturer Specific Data structure (0xFF), in payload order.
    public var manufacturerSpecificData: [ADManufacturerSpecificData] {
        var out: [ADManufacturerSpecificData] = []
        for case let .manufacturerSpecificData(m) in decoded(where: { $0 == 0xFF }) { out.append(m) }
        return out
    }

    /// Every Service Data structure (0x16, 0x20, 0x21), in payload order.
    public var serviceData: [ADServiceData] {
        var out: [ADServiceData] = []
        for case let .serviceData(sd) in decoded(where: { $0 == 0x16 || $0 == 0x20 || $0 == 0x21 }) { out.append(sd) }
        return out
    }

    /// The data of the first Service Data structure for `uuid` (matched whatever its width).
    public func serviceData(for uuid: BluetoothUUID) -> [UInt8]? {
        serviceData.first { $0.uuid == uuid }?.data
    }

    /// The Tx Power Level (0x0A) in dBm.
    public var txPowerLevel: Int8? {
        if case .txPowerLevel(let dBm)? = firstStructure(ofType: .txPowerLevel) { return dBm }
        return nil
    }

    /// The Appearance (0x19).
    public var appearance: ADAppearance? {
        if case .appearance(let a)? = firstStructure(ofType: .appearance) { return a }
        return nil
    }

    /// Every Public Target Address (0x17), in payload order.
    public var publicTargetAddresses: [BluetoothAddress] {
        var out: [BluetoothAddress] = []
        for case let .publicTargetAddresses(a) in decoded(where: { $0 == 0x17 }) { out.append(contentsOf: a) }
        return out
    }

    /// Every Random Target Address (0x18), in payload order.
    public var randomTargetAddresses: [BluetoothAddress] {
        var out: [BluetoothAddress] = []
        for case let .randomTargetAddresses(a) in decoded(where: { $0 == 0x18 }) { out.append(contentsOf: a) }
        return out
    }

    /// The Advertising Interval (0x1A) or, failing that, the Advertising Interval - long (0x2F).
    public var advertisingInterval: ADAdvertisingInterval? {
        if case .advertisingInterval(let i)? = firstStructure(ofType: .advertisingInterval) { return i }
        if case .advertisingInterval(let i)? = firstStructure(ofType: .advertisingIntervalLong) { return i }
        return nil
    }

    /// The LE Role (0x1C).
    public var leRole: ADLERole? {
        if case .leRole(let r)? = firstStructure(ofType: .leRole) { return r }
        return nil
    }

    /// Every URI (0x24), in payload order.
    public var uris: [ADURI] {
        var out: [ADURI] = []
        for case let .uri(u) in decoded(where: { $0 == 0x24 }) { out.append(u) }
        return out
    }

    /// The LE Supported Features (0x27).
    public var leSupportedFeatures: ADLESupportedFeatures? {
        if case .leSupportedFeatures(let f)? = firstStructure(ofType: .leSupportedFeatures) { return f }
        return nil
    }

    /// The Peripheral Connection Interval Range (0x12).
    public var peripheralConnectionIntervalRange: ADPeripheralConnectionIntervalRange? {
        if case .peripheralConnectionIntervalRange(let r)? = firstStructure(ofType: .peripheralConnectionIntervalRange) { return r }
        return nil
    }
}
