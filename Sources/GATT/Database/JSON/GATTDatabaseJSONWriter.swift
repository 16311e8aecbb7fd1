import BLECore

/// Writes a built database as JSON in the format of docs/gatt-database-json.md, with every
/// handle and every descriptor explicit, so loading the text rebuilds the same attributes.
struct GATTDatabaseJSONWriter {
    typealias Failure = GATTDatabaseJSONError

    func database(_ db: GATTDatabase) throws(Failure) -> JSONValue {
        var services: [JSONValue] = []
        for (i, service) in db.services.enumerated() {
            services.append(try self.service(service, in: db, path: "services[\(i)]"))
        }
        // Written only when it differs from the default, like permissions.
        let adds: [(String, JSONValue)] = db.addsServerServices ? [] : [("addServerServices", .bool(false))]
        return .object(adds + [("services", .array(services))])
    }

    static func handle(_ h: UInt16) -> JSONValue { .string("0x" + String(h, radix: 16).leftPadded(to: 4)) }

    static func uuid(_ uuid: BluetoothUUID) -> JSONValue { .string(uuid.description) }

    func service(_ service: GATTService, in db: GATTDatabase, path: String) throws(Failure) -> JSONValue {
        var m: [(String, JSONValue)] = []
        if let id = service.id { m.append(("id", .string(id))) }
        if !service.isPrimary { m.append(("type", .string("secondary"))) }
        m.append(("uuid", Self.uuid(service.uuid)))
        m.append(("handle", Self.handle(service.handle)))
        m.append(("endGroupHandle", Self.handle(service.endGroupHandle)))
        if !service.includes.isEmpty {
            let includes = service.includes.map { include -> JSONValue in
                let index = db.services.firstIndex { $0.handle == include.serviceHandle } ?? 0
                let reference: JSONValue = db.services[index].id.map { .string($0) } ?? .int(index)
                return .object([("service", reference), ("handle", Self.handle(include.handle))])
            }
            m.append(("includes", .array(includes)))
        }
        if !service.characteristics.isEmpty {
            var list: [JSONValue] = []
            for (j, c) in service.characteristics.enumerated() {
                list.append(try characteristic(c, path: path + ".characteristics[\(j)]"))
            }
            m.append(("characteristics", .array(list)))
        }
        return .object(m)
    }

    func characteristic(_ c: GATTCharacteristic, path: String) throws(Failure) -> JSONValue {
        var m: [(String, JSONValue)] = [("uuid", Self.uuid(c.uuid)), ("handle", Self.handle(c.declarationHandle)),
                                        ("valueHandle", Self.handle(c.valueHandle))]
        m.append(("properties", .array(c.properties.nameList.map { .string($0) })))
        if !c.extendedProperties.isEmpty {
            let named = c.extendedProperties.nameList
            m.append(("extendedProperties", GATTCharacteristicExtendedProperties(names: named) == c.extendedProperties
                ? .array(named.map { .string($0) }) : .int(Int(c.extendedProperties.rawValue))))
        }
        let defaults = GATTCharacteristicDefinition(uuid: c.uuid, properties: c.properties,
                                                    extendedProperties: c.extendedProperties).defaultPermissions
        if c.permissions != defaults { m.append(("permissions", Self.permissions(c.permissions))) }
        m += try value(c.value, path: path)
        if !c.descriptors.isEmpty {
            var list: [JSONValue] = []
            for (k, d) in c.descriptors.enumerated() {
                list.append(try descriptor(d, extendedProperties: c.extendedProperties, path: path + ".descriptors[\(k)]"))
            }
            m.append(("descriptors", .array(list)))
        }
        return .object(m)
    }

    func value(_ value: GATTAttributeValue, path: String) throws(Failure) -> [(String, JSONValue)] {
        switch value {
        case .fixed(let octets):
            return octets.isEmpty ? [] : [("value", .object([("hex", .string(Hex.encode(octets)))]))]
        case .dynamic(let handlers):
            guard let name = handlers.name else {
                throw .notRepresentable(path: path + ".value", reason: "dynamic handlers without a name have no JSON form")
            }
            return [("handler", .string(name))]
        }
    }

    func descriptor(_ d: GATTDescriptor, extendedProperties: GATTCharacteristicExtendedProperties,
                    path: String) throws(Failure) -> JSONValue {
        var m: [(String, JSONValue)] = []
        switch d.content {
        case .clientCharacteristicConfiguration: m.append(("type", .string("cccd")))
        case .serverCharacteristicConfiguration: m.append(("type", .string("sccd")))
        case .extendedProperties: m.append(("type", .string("extendedProperties")))
        case .aggregateFormat: m.append(("type", .string("aggregateFormat")))
        case .userDescription(let text): m += [("type", .string("userDescription")), ("text", .string(text))]
        case .presentationFormat(let f):
            m.append(("type", .string("presentationFormat")))
            m.append(("format", f.format.name.map { .string($0) } ?? .int(Int(f.format.rawValue))))
            m += [("exponent", .int(Int(f.exponent))), ("unit", Self.uuid(f.unitUUID)),
                  ("namespace", .int(Int(f.namespace))), ("description", .int(Int(f.description)))]
        case .other(let type, let value):
            m.append(("uuid", Self.uuid(type)))
            m += try self.value(value, path: path)
        }
        m.append(("handle", Self.handle(d.handle)))
        if d.permissions != d.content.defaultPermissions(extendedProperties: extendedProperties) {
            m.append(("permissions", Self.permissions(d.permissions)))
        }
        return .object(m)
    }

    static func permissions(_ p: GATTPermissions) -> JSONValue {
        .object([("read", access(p.read)), ("write", access(p.write))])
    }

    static func access(_ a: GATTAccess?) -> JSONValue {
        guard let a else { return .bool(false) }
        if a.isOpen { return .bool(true) }
        var m: [(String, JSONValue)] = []
        if a.encryption { m.append(("encryption", .bool(true))) }
        if a.authentication { m.append(("authentication", .bool(true))) }
        if a.authorization { m.append(("authorization", .bool(true))) }
        if a.minimumKeySize != 0 { m.append(("minimumKeySize", .int(a.minimumKeySize))) }
        return .object(m)
    }
}

extension GATTCharacteristicExtendedProperties {
    /// The properties with these names (names that are not in ``names`` are ignored).
    init(names: [String]) {
        self = names.compactMap { GATTCharacteristicExtendedProperties(name: $0) }.reduce(into: []) { $0.formUnion($1) }
    }
}

extension JSONValue {
    /// The value as indented JSON text (two spaces per level), an array of scalars on one line,
    /// ending with a newline.
    func prettyText() -> String {
        var out = ""
        writePretty(to: &out, indent: "")
        return out + "\n"
    }

    var isScalar: Bool {
        switch self {
        case .array, .object: return false
        default: return true
        }
    }

    func writePretty(to out: inout String, indent: String) {
        switch self {
        case .array(let items) where items.isEmpty || items.allSatisfy(\.isScalar):
            out += "[" + items.map(\.description).joined(separator: ", ") + "]"
        case .array(let items):
            out += "[\n"
            for (i, item) in items.enumerated() {
                out += indent + "  "
                item.writePretty(to: &out, indent: indent + "  ")
                out += i + 1 < items.count ? ",\n" : "\n"
            }
            out += indent + "]"
        case .object(let members) where members.isEmpty:
            out += "{}"
        case .object(let members):
            out += "{\n"
            for (i, (key, value)) in members.enumerated() {
                out += indent + "  " + JSONValue.string(key).description + ": "
                value.writePretty(to: &out, indent: indent + "  ")
                out += i + 1 < members.count ? ",\n" : "\n"
            }
            out += indent + "}"
        default:
            out += description
        }
    }
}
