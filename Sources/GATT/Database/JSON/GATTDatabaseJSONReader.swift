import BLECore
import Foundation

/// Reads service definitions from a JSON database parsed by BLECore's `JSONReader` (docs/gatt-database-json.md), naming
/// every fault by its member path.
struct GATTDatabaseJSONReader {
    let handlers: [String: GATTValueHandlers]

    typealias Failure = GATTDatabaseJSONError

    // MARK: Typed access

    /// The members of an object, after checking that every one is in `allowed` ("comment" is
    /// always allowed).
    func object(_ node: JSONValue, _ path: String, allowed: [String]) throws(Failure) -> [String: JSONValue] {
        guard case .object(let list) = node else { throw .wrongType(path: path, expected: "an object") }
        if let (unknown, _) = list.first(where: { $0.0 != "comment" && !allowed.contains($0.0) }) {
            throw .unknownMember(path: path.isEmpty ? unknown : path + "." + unknown)
        }
        // JSONReader refuses duplicate names, so no member is lost here; names that differ only in
        // Unicode normalisation are unknown members above.
        return Dictionary(list, uniquingKeysWith: { first, _ in first })
    }

    func array(_ node: JSONValue, _ path: String) throws(Failure) -> [JSONValue] {
        guard case .array(let items) = node else { throw .wrongType(path: path, expected: "an array") }
        return items
    }

    func string(_ node: JSONValue, _ path: String) throws(Failure) -> String {
        guard case .string(let s) = node else { throw .wrongType(path: path, expected: "a string") }
        return s
    }

    func bool(_ node: JSONValue, _ path: String) throws(Failure) -> Bool {
        guard case .bool(let b) = node else { throw .wrongType(path: path, expected: "true or false") }
        return b
    }

    func integer(_ node: JSONValue, _ path: String, in range: ClosedRange<Int>) throws(Failure) -> Int {
        guard case .int(let i) = node else { throw .wrongType(path: path, expected: "an integer") }
        guard range.contains(i) else { throw .invalidValue(path: path, reason: "\(i) is outside \(range.lowerBound)...\(range.upperBound)") }
        return i
    }

    func required(_ members: [String: JSONValue], _ key: String, _ path: String) throws(Failure) -> JSONValue {
        guard let node = members[key] else { throw .missingMember(path: path + "." + key) }
        return node
    }

    /// A handle: an integer 0...65535 or a string "0x..." of hexadecimal digits.
    func handle(_ node: JSONValue?, _ path: String) throws(Failure) -> UInt16? {
        guard let node else { return nil }
        switch node {
        case .int: return UInt16(try integer(node, path, in: 0...0xFFFF))
        case .string(let text):
            guard text.hasPrefix("0x") || text.hasPrefix("0X"), let value = UInt16(text.dropFirst(2), radix: 16) else {
                throw .invalidValue(path: path, reason: "\"\(text)\" is not a handle; write 0x0001...0xffff or an integer")
            }
            return value
        default: throw .wrongType(path: path, expected: "a handle (an integer or a \"0x...\" string)")
        }
    }

    func uuid(_ node: JSONValue, _ path: String) throws(Failure) -> BluetoothUUID {
        let text = try string(node, path)
        guard let uuid = BluetoothUUID(text) else {
            throw .invalidValue(path: path, reason: "\"\(text)\" is not a UUID; write \"180D\", \"0000180D\" or 128 bits as 8-4-4-4-12 hexadecimal digits")
        }
        return uuid
    }

    // MARK: The database

    func services(_ root: JSONValue) throws(Failure) -> [GATTServiceDefinition] {
        try database(root).services
    }

    /// The top level: the services, and whether the server adds its own (`addServerServices`,
    /// default true).
    func database(_ root: JSONValue) throws(Failure) -> (services: [GATTServiceDefinition], addsServerServices: Bool) {
        guard case .object = root else { throw .wrongType(path: "(top level)", expected: "an object") }
        let members = try object(root, "", allowed: ["services", "addServerServices"])
        let adds = try members["addServerServices"].map { (node) throws(Failure) -> Bool in try bool(node, "addServerServices") } ?? true
        return (try services(members), adds)
    }

    private func services(_ members: [String: JSONValue]) throws(Failure) -> [GATTServiceDefinition] {
        guard let list = members["services"] else { throw .missingMember(path: "services") }
        let items = try array(list, "services")
        var services: [GATTServiceDefinition] = []
        for (i, item) in items.enumerated() { services.append(try service(item, "services[\(i)]")) }
        return services
    }

    func service(_ node: JSONValue, _ path: String) throws(Failure) -> GATTServiceDefinition {
        let m = try object(node, path, allowed: ["id", "type", "uuid", "handle", "endGroupHandle", "includes", "characteristics"])
        var service = GATTServiceDefinition(uuid: try uuid(try required(m, "uuid", path), path + ".uuid"))
        if let id = m["id"] { service.id = try string(id, path + ".id") }
        if let type = m["type"] {
            switch try string(type, path + ".type") {
            case "primary": service.isPrimary = true
            case "secondary": service.isPrimary = false
            case let other: throw .invalidValue(path: path + ".type", reason: "\"\(other)\"; write \"primary\" or \"secondary\"")
            }
        }
        service.handle = try handle(m["handle"], path + ".handle")
        service.endGroupHandle = try handle(m["endGroupHandle"], path + ".endGroupHandle")
        if let includes = m["includes"] {
            for (j, include) in try array(includes, path + ".includes").enumerated() {
                service.includes.append(try self.include(include, path + ".includes[\(j)]"))
            }
        }
        if let characteristics = m["characteristics"] {
            for (j, c) in try array(characteristics, path + ".characteristics").enumerated() {
                service.characteristics.append(try characteristic(c, path + ".characteristics[\(j)]"))
            }
        }
        return service
    }

    func serviceReference(_ node: JSONValue, _ path: String) throws(Failure) -> GATTServiceReference {
        switch node {
        case .string(let id): return .id(id)
        case .int: return .index(try integer(node, path, in: 0...Int.max))
        default: throw .wrongType(path: path, expected: "a service id (a string) or position (an integer)")
        }
    }

    func include(_ node: JSONValue, _ path: String) throws(Failure) -> GATTIncludeDefinition {
        guard case .object = node else { return GATTIncludeDefinition(try serviceReference(node, path)) }
        let m = try object(node, path, allowed: ["service", "handle"])
        return GATTIncludeDefinition(try serviceReference(try required(m, "service", path), path + ".service"),
                                     handle: try handle(m["handle"], path + ".handle"))
    }

    func characteristic(_ node: JSONValue, _ path: String) throws(Failure) -> GATTCharacteristicDefinition {
        let m = try object(node, path, allowed: ["uuid", "handle", "valueHandle", "properties", "extendedProperties",
                                                 "permissions", "value", "handler", "descriptors"])
        var c = GATTCharacteristicDefinition(uuid: try uuid(try required(m, "uuid", path), path + ".uuid"), properties: [])
        if let p = m["properties"] {
            c.properties = GATTCharacteristicProperties(rawValue: UInt8(try bits(p, path + ".properties", width: 0xFF) { name in
                GATTCharacteristicProperties(name: name).map { UInt64($0.rawValue) }
            }))
        }
        if let p = m["extendedProperties"] {
            c.extendedProperties = GATTCharacteristicExtendedProperties(rawValue: UInt16(try bits(p, path + ".extendedProperties", width: 0xFFFF) { name in
                GATTCharacteristicExtendedProperties(name: name).map { UInt64($0.rawValue) }
            }))
        }
        c.handle = try handle(m["handle"], path + ".handle")
        c.valueHandle = try handle(m["valueHandle"], path + ".valueHandle")
        if let p = m["permissions"] { c.permissions = try permissions(p, path + ".permissions") }
        if let v = try value(m, path) { c.value = v }
        if let descriptors = m["descriptors"] {
            for (k, d) in try array(descriptors, path + ".descriptors").enumerated() {
                c.descriptors.append(try descriptor(d, path + ".descriptors[\(k)]"))
            }
        }
        return c
    }

    /// A bit field written as an array of names, or as an integer (for reserved bits).
    func bits(_ node: JSONValue, _ path: String, width: Int, named: (String) -> UInt64?) throws(Failure) -> UInt64 {
        if case .int = node { return UInt64(try integer(node, path, in: 0...width)) }
        var value: UInt64 = 0
        for (i, item) in try array(node, path).enumerated() {
            let name = try string(item, path + "[\(i)]")
            guard let bit = named(name) else { throw .invalidValue(path: path + "[\(i)]", reason: "unknown property \"\(name)\"") }
            value |= bit
        }
        return value
    }

    /// The `value` or `handler` member of an object; nil when it has neither.
    func value(_ m: [String: JSONValue], _ path: String) throws(Failure) -> GATTAttributeValue? {
        switch (m["value"], m["handler"]) {
        case (nil, nil): return nil
        case (.some, .some): throw .invalidValue(path: path + ".handler", reason: "give a value or a handler, not both")
        case (let node?, nil):
            let v = try object(node, path + ".value", allowed: ["hex", "text"])
            switch (v["hex"], v["text"]) {
            case (let hex?, nil):
                let text = try string(hex, path + ".value.hex")
                guard let octets = Hex.decode(text) else {
                    throw .invalidValue(path: path + ".value.hex", reason: "\"\(text)\" is not an even number of hexadecimal digits")
                }
                return .fixed(octets)
            case (nil, let text?): return .text(try string(text, path + ".value.text"))
            case (nil, nil): throw .missingMember(path: path + ".value.hex")
            case (.some, .some): throw .invalidValue(path: path + ".value", reason: "give hex or text, not both")
            }
        case (nil, let node?):
            let name = try string(node, path + ".handler")
            guard var found = handlers[name] else { throw .unknownHandler(path: path + ".handler", name: name) }
            if found.name == nil { found.name = name }
            return .dynamic(found)
        }
    }

    func permissions(_ node: JSONValue, _ path: String) throws(Failure) -> GATTPermissions {
        let m = try object(node, path, allowed: ["read", "write"])
        return GATTPermissions(read: try access(m["read"], path + ".read"), write: try access(m["write"], path + ".write"))
    }

    /// `true` (permitted, no requirement), `false` or absent (not permitted), or an object of
    /// requirements.
    func access(_ node: JSONValue?, _ path: String) throws(Failure) -> GATTAccess? {
        switch node {
        case nil, .bool(false)?: return nil
        case .bool(true)?: return .open
        case let node?:
            guard case .object = node else { throw .wrongType(path: path, expected: "true, false or an object of requirements") }
            let m = try object(node, path, allowed: ["encryption", "authentication", "authorization", "minimumKeySize"])
            var access = GATTAccess()
            if let b = m["encryption"] { access.encryption = try bool(b, path + ".encryption") }
            if let b = m["authentication"] { access.authentication = try bool(b, path + ".authentication") }
            if let b = m["authorization"] { access.authorization = try bool(b, path + ".authorization") }
            if let n = m["minimumKeySize"] { access.minimumKeySize = try integer(n, path + ".minimumKeySize", in: 0...255) }
            return access
        }
    }

    /// The descriptor kinds by their JSON `type` name.
    static let descriptorTypes = ["cccd", "sccd", "extendedProperties", "userDescription", "presentationFormat", "aggregateFormat"]

    func descriptor(_ node: JSONValue, _ path: String) throws(Failure) -> GATTDescriptorDefinition {
        guard case .object(let list) = node else { throw .wrongType(path: path, expected: "an object") }
        let all = Dictionary(list, uniquingKeysWith: { first, _ in first })
        var allowed = ["type", "uuid", "handle", "permissions"]
        let content: GATTDescriptorContent
        switch (all["type"], all["uuid"]) {
        case (nil, nil): throw .missingMember(path: path + ".type")
        case (.some, .some): throw .invalidValue(path: path + ".uuid", reason: "give a type or a uuid, not both")
        case (nil, let uuidNode?):
            allowed += ["value", "handler"]
            let m = try object(node, path, allowed: allowed)
            content = .other(type: try uuid(uuidNode, path + ".uuid"), value: try value(m, path) ?? .fixed([]))
        case (let typeNode?, nil):
            let type = try string(typeNode, path + ".type")
            switch type {
            case "cccd": content = .clientCharacteristicConfiguration
            case "sccd": content = .serverCharacteristicConfiguration
            case "extendedProperties": content = .extendedProperties
            case "aggregateFormat": content = .aggregateFormat
            case "userDescription":
                allowed.append("text")
                let m = try object(node, path, allowed: allowed)
                content = .userDescription(try string(try required(m, "text", path), path + ".text"))
            case "presentationFormat":
                allowed += ["format", "exponent", "unit", "namespace", "description"]
                let m = try object(node, path, allowed: allowed)
                content = .presentationFormat(try presentationFormat(m, path))
            default:
                throw .invalidValue(path: path + ".type",
                                    reason: "\"\(type)\"; write one of \(Self.descriptorTypes.joined(separator: ", ")), or a uuid instead")
            }
        }
        let m = try object(node, path, allowed: allowed)
        return GATTDescriptorDefinition(content, permissions: try m["permissions"].map { (p) throws(Failure) in
            try permissions(p, path + ".permissions")
        }, handle: try handle(m["handle"], path + ".handle"))
    }

    func presentationFormat(_ m: [String: JSONValue], _ path: String) throws(Failure) -> GATTPresentationFormat {
        let formatNode = try required(m, "format", path)
        let format: GATTFormat
        switch formatNode {
        case .string(let name):
            guard let f = GATTFormat(name: name) else {
                throw .invalidValue(path: path + ".format", reason: "unknown format \"\(name)\"; write a Short Name such as \"uint8\", or its number")
            }
            format = f
        default: format = GATTFormat(rawValue: UInt8(try integer(formatNode, path + ".format", in: 0...0xFF)))
        }
        var result = GATTPresentationFormat(format: format)
        if let n = m["exponent"] { result.exponent = Int8(try integer(n, path + ".exponent", in: -128...127)) }
        if let n = m["unit"] {
            let unit = try uuid(n, path + ".unit")
            guard unit.width == .bits16, let value = unit.uuid16 else {
                throw .invalidValue(path: path + ".unit", reason: "a unit is a 16-bit UUID such as \"27AD\"")
            }
            result.unit = value
        }
        if let n = m["namespace"] { result.namespace = UInt8(try integer(n, path + ".namespace", in: 0...0xFF)) }
        if let n = m["description"] { result.description = UInt16(try integer(n, path + ".description", in: 0...0xFFFF)) }
        return result
    }
}
