import BLECore

/// The work of ``GATTDatabaseBuilder/build()``, in four passes:
/// 1. handles: allocate or check every handle, service by service, in the builder's order;
/// 2. services: sort them by handle and reject overlaps, duplicate ids, missing or circular includes;
/// 3. values and permissions: check them against Part F, 3.2.9 and Part G, 3.3.3;
/// 4. attributes: compute the declarations, assemble the tree and the attribute list, hash.
enum GATTDatabaseLayout {
    /// The largest attribute value (Core v5.4, Vol 3, Part F, 3.2.9).
    static let maximumValueLength = 512

    /// The descriptor types a characteristic may have at most once (Part G, 3.3.3.1-3.3.3.6).
    static let singleDescriptorTypes: Set<BluetoothUUID> = [
        GATTAttributeType.characteristicExtendedProperties, GATTAttributeType.characteristicUserDescription,
        GATTAttributeType.clientCharacteristicConfiguration, GATTAttributeType.serverCharacteristicConfiguration,
        GATTAttributeType.characteristicAggregateFormat,
    ]

    /// A descriptor with its handle and path.
    struct PlacedDescriptor {
        var content: GATTDescriptorContent
        var permissions: GATTPermissions
        var handle: UInt16
        var path: String
    }

    /// A characteristic with its handles and final properties.
    struct PlacedCharacteristic {
        var definition: GATTCharacteristicDefinition
        var properties: GATTCharacteristicProperties
        var path: String
        var handle: UInt16
        var valueHandle: UInt16
        var descriptors: [PlacedDescriptor]
    }

    /// A service with its handles.
    struct PlacedService {
        var index: Int
        var definition: GATTServiceDefinition
        var uuid: BluetoothUUID
        var path: String
        var handle: UInt16
        var endGroupHandle: UInt16
        var includeHandles: [UInt16]
        var characteristics: [PlacedCharacteristic]

        /// Every handle of the service with the path that claimed it.
        var handles: [(handle: UInt16, path: String)] {
            var out: [(UInt16, String)] = [(handle, path + ".handle")]
            for (j, h) in includeHandles.enumerated() { out.append((h, path + ".includes[\(j)].handle")) }
            for c in characteristics {
                out.append((c.handle, c.path + ".handle"))
                out.append((c.valueHandle, c.path + ".valueHandle"))
                for d in c.descriptors { out.append((d.handle, d.path)) }
            }
            return out
        }
    }

    static func build(_ definitions: [GATTServiceDefinition]) throws(GATTDatabaseError) -> GATTDatabase {
        let placed = try placeHandles(definitions)
        let sorted = try checkServiceRanges(placed)
        let targets = try resolveIncludes(definitions)
        for service in placed { try checkValues(service) }
        return try assemble(sorted, targets: targets, byIndex: placed)
    }

    // MARK: 1. Handles

    /// Hands out handles inside one service: explicit ones must ascend, automatic ones follow
    /// the last.
    struct HandleCursor {
        var last: Int

        mutating func place(_ explicit: UInt16?, automatic: Int? = nil, path: String) throws(GATTDatabaseError) -> UInt16 {
            if let handle = explicit {
                guard handle != 0 else { throw .reservedHandle(path: path) }
                guard Int(handle) > last else {
                    throw .handleOutOfOrder(path: path, handle: handle, previous: UInt16(truncatingIfNeeded: last))
                }
                last = Int(handle)
                return handle
            }
            let handle = automatic ?? last + 1
            guard handle <= Int(UInt16.max) else { throw .handlesExhausted(path: path) }
            guard handle > last else {
                throw .handleOutOfOrder(path: path, handle: UInt16(truncatingIfNeeded: handle), previous: UInt16(truncatingIfNeeded: last))
            }
            last = handle
            return UInt16(handle)
        }
    }

    static func placeHandles(_ definitions: [GATTServiceDefinition]) throws(GATTDatabaseError) -> [PlacedService] {
        var next = 1
        var placed: [PlacedService] = []
        placed.reserveCapacity(definitions.count)
        for (i, definition) in definitions.enumerated() {
            let path = "services[\(i)]"
            // The declaration: explicit anywhere, else right after the previous service.
            var cursor = HandleCursor(last: 0)
            let handle = try cursor.place(definition.handle, automatic: next, path: path + ".handle")
            var includeHandles: [UInt16] = []
            for (j, include) in definition.includes.enumerated() {
                includeHandles.append(try cursor.place(include.handle, path: path + ".includes[\(j)].handle"))
            }
            var characteristics: [PlacedCharacteristic] = []
            for (j, characteristic) in definition.characteristics.enumerated() {
                characteristics.append(try place(characteristic, path: path + ".characteristics[\(j)]", cursor: &cursor))
            }
            var end = UInt16(cursor.last)
            if let explicitEnd = definition.endGroupHandle {
                guard explicitEnd >= end else {
                    throw .endGroupHandleTooLow(path: path + ".endGroupHandle", endGroupHandle: explicitEnd, lastHandle: end)
                }
                end = explicitEnd
            }
            placed.append(PlacedService(index: i, definition: definition, uuid: GATTLayouts.attUUID(definition.uuid),
                                        path: path, handle: handle, endGroupHandle: end,
                                        includeHandles: includeHandles, characteristics: characteristics))
            next = Int(end) + 1
        }
        return placed
    }

    /// The descriptors the definition lists, then the ones the specification requires that it
    /// lacks (see ``GATTCharacteristicDefinition``), and the properties that result.
    static func descriptors(of definition: GATTCharacteristicDefinition)
        -> (properties: GATTCharacteristicProperties, list: [(GATTDescriptorDefinition, String?)]) {
        var properties = definition.properties
        var list: [(GATTDescriptorDefinition, String?)] = definition.descriptors.map { ($0, nil) }
        let listed = Set(definition.descriptors.map(\.content.type))
        if !properties.isDisjoint(with: [.notify, .indicate]),
           !listed.contains(GATTAttributeType.clientCharacteristicConfiguration) {
            list.append((GATTDescriptorDefinition(.clientCharacteristicConfiguration), "Client Characteristic Configuration"))
        }
        if properties.contains(.broadcast), !listed.contains(GATTAttributeType.serverCharacteristicConfiguration) {
            list.append((GATTDescriptorDefinition(.serverCharacteristicConfiguration), "Server Characteristic Configuration"))
        }
        if !definition.extendedProperties.isEmpty || listed.contains(GATTAttributeType.characteristicExtendedProperties) {
            properties.insert(.extendedProperties)
        }
        if properties.contains(.extendedProperties), !listed.contains(GATTAttributeType.characteristicExtendedProperties) {
            list.append((GATTDescriptorDefinition(.extendedProperties), "Characteristic Extended Properties"))
        }
        return (properties, list)
    }

    static func place(_ definition: GATTCharacteristicDefinition, path: String,
                      cursor: inout HandleCursor) throws(GATTDatabaseError) -> PlacedCharacteristic {
        if definition.valueHandle == 0 { throw .reservedHandle(path: path + ".valueHandle") }
        // Only the value handle given: the declaration sits just before it.
        let automatic = definition.handle == nil ? definition.valueHandle.map { Int($0) - 1 } : nil
        let handle = try cursor.place(definition.handle, automatic: automatic, path: path + ".handle")
        let valueHandle = try cursor.place(definition.valueHandle, path: path + ".valueHandle")
        let (properties, list) = descriptors(of: definition)
        var placed: [PlacedDescriptor] = []
        for (k, (descriptor, automaticName)) in list.enumerated() {
            let descriptorPath = automaticName.map { path + ".(automatic \($0))" } ?? path + ".descriptors[\(k)]"
            let h = try cursor.place(descriptor.handle, path: automaticName == nil ? descriptorPath + ".handle" : descriptorPath)
            let permissions = descriptor.permissions
                ?? descriptor.content.defaultPermissions(extendedProperties: definition.extendedProperties)
            placed.append(PlacedDescriptor(content: descriptor.content, permissions: permissions, handle: h, path: descriptorPath))
        }
        return PlacedCharacteristic(definition: definition, properties: properties, path: path, handle: handle,
                                    valueHandle: valueHandle, descriptors: placed)
    }

    // MARK: 2. Services

    /// Sorts the services by handle and rejects any two whose ranges meet.
    static func checkServiceRanges(_ placed: [PlacedService]) throws(GATTDatabaseError) -> [PlacedService] {
        let sorted = placed.sorted { ($0.handle, $0.index) < ($1.handle, $1.index) }
        for (a, b) in zip(sorted, sorted.dropFirst()) where b.handle <= a.endGroupHandle {
            let (first, second) = a.index < b.index ? (a, b) : (b, a)
            var claimed: [UInt16: String] = [:]
            for (handle, path) in first.handles { claimed[handle] = path }
            for (handle, path) in second.handles {
                if let other = claimed[handle] { throw .duplicateHandle(handle: handle, path: path, otherPath: other) }
            }
            throw .overlappingServices(path: second.path, otherPath: first.path)
        }
        return sorted
    }

    /// The index of the service each include names, per service; rejects duplicate ids,
    /// unknown references and circles.
    static func resolveIncludes(_ definitions: [GATTServiceDefinition]) throws(GATTDatabaseError) -> [[Int]] {
        var ids: [String: Int] = [:]
        for (i, definition) in definitions.enumerated() {
            guard let id = definition.id else { continue }
            guard ids[id] == nil else { throw .duplicateServiceID(id: id, path: "services[\(i)].id") }
            ids[id] = i
        }
        var targets: [[Int]] = []
        for (i, definition) in definitions.enumerated() {
            var list: [Int] = []
            for (j, include) in definition.includes.enumerated() {
                let target: Int?
                switch include.service {
                case .id(let id): target = ids[id]
                case .index(let index): target = definitions.indices.contains(index) ? index : nil
                }
                guard let target else {
                    throw .includedServiceNotFound(reference: include.service, path: "services[\(i)].includes[\(j)]")
                }
                list.append(target)
            }
            targets.append(list)
        }
        try checkCircles(targets)
        return targets
    }

    /// Depth-first search for a circle in the include graph (Part G, 3.2).
    static func checkCircles(_ targets: [[Int]]) throws(GATTDatabaseError) {
        enum Mark { case unvisited, onPath, done }
        var marks = [Mark](repeating: .unvisited, count: targets.count)
        for root in targets.indices where marks[root] == .unvisited {
            // An explicit stack of (service, next include to follow), so deep chains cannot overflow.
            var path: [(node: Int, next: Int)] = [(root, 0)]
            marks[root] = .onPath
            while let top = path.last {
                if top.next == targets[top.node].count {
                    marks[top.node] = .done
                    path.removeLast()
                    continue
                }
                path[path.count - 1].next += 1
                let child = targets[top.node][top.next]
                switch marks[child] {
                case .onPath:
                    let start = path.firstIndex { $0.node == child } ?? 0
                    let cycle = path[start...].map { "services[\($0.node)]" } + ["services[\(child)]"]
                    throw .circularInclude(cycle: cycle)
                case .unvisited:
                    marks[child] = .onPath
                    path.append((child, 0))
                case .done:
                    break
                }
            }
        }
    }

    // MARK: 3. Values and permissions

    static func checkValues(_ service: PlacedService) throws(GATTDatabaseError) {
        for c in service.characteristics {
            let permissions = c.definition.permissions ?? c.definition.defaultPermissions
            try checkKeySizes(permissions, path: c.path + ".permissions")
            try checkValue(c.definition.value, permissions: permissions, path: c.path + ".value")
            var seen: Set<BluetoothUUID> = []
            var formats = 0
            for d in c.descriptors {
                let type = d.content.type
                if case .other(let rawType, _) = d.content,
                   GATTAttributeType.isDeclaration(rawType) || rawType == GATTAttributeType.characteristicExtendedProperties
                    || rawType == GATTAttributeType.clientCharacteristicConfiguration
                    || rawType == GATTAttributeType.serverCharacteristicConfiguration {
                    throw .reservedDescriptorType(type: rawType, path: d.path)
                }
                if singleDescriptorTypes.contains(type) {
                    guard seen.insert(type).inserted else { throw .duplicateDescriptor(type: type, path: d.path) }
                }
                if type == GATTAttributeType.characteristicPresentationFormat { formats += 1 }
                try checkKeySizes(d.permissions, path: d.path + ".permissions")
                try checkDescriptorPermissions(d, extendedProperties: c.definition.extendedProperties)
                switch d.content {
                case .userDescription(let text):
                    let length = text.utf8.count
                    if length > maximumValueLength { throw .valueTooLong(path: d.path + ".text", length: length) }
                case .other(_, let value):
                    try checkValue(value, permissions: d.permissions, path: d.path + ".value")
                default:
                    break
                }
            }
            if formats > 1, !seen.contains(GATTAttributeType.characteristicAggregateFormat) {
                throw .missingAggregateFormat(path: c.path)
            }
        }
    }

    static func checkValue(_ value: GATTAttributeValue, permissions: GATTPermissions, path: String) throws(GATTDatabaseError) {
        switch value {
        case .fixed(let octets):
            if octets.count > maximumValueLength { throw .valueTooLong(path: path, length: octets.count) }
        case .dynamic(let handlers):
            if permissions.read != nil, handlers.read == nil { throw .missingHandler(path: path, access: "read") }
            if permissions.write != nil, handlers.write == nil { throw .missingHandler(path: path, access: "write") }
        }
    }

    static func checkKeySizes(_ permissions: GATTPermissions, path: String) throws(GATTDatabaseError) {
        for access in [permissions.read, permissions.write].compactMap({ $0 }) {
            let size = access.minimumKeySize
            guard size == 0 || GATTAccess.keySizeRange.contains(size) else {
                throw .invalidPermissions(path: path, reason: "minimum key size \(size) is outside 7...16 octets")
            }
        }
    }

    /// The permissions Part G, 3.3.3 sets for each descriptor type.
    static func checkDescriptorPermissions(_ d: PlacedDescriptor,
                                           extendedProperties: GATTCharacteristicExtendedProperties) throws(GATTDatabaseError) {
        let path = d.path + ".permissions"
        let p = d.permissions
        switch d.content.type {
        case GATTAttributeType.clientCharacteristicConfiguration, GATTAttributeType.serverCharacteristicConfiguration:
            // 3.3.3.3, 3.3.3.4: readable with no authentication or authorization; writable.
            guard p.read == .open, p.write != nil else {
                throw .invalidPermissions(path: path, reason: "a configuration descriptor is readable with no requirement, and writable")
            }
        case GATTAttributeType.characteristicExtendedProperties, GATTAttributeType.characteristicPresentationFormat,
             GATTAttributeType.characteristicAggregateFormat:
            // 3.3.3.1, 3.3.3.5, 3.3.3.6: read only, no authentication or authorization.
            guard p == .readOnly else {
                throw .invalidPermissions(path: path, reason: "this descriptor is read only with no requirement")
            }
        case GATTAttributeType.characteristicUserDescription:
            // 3.3.3.2: readable with no requirement; writable only with Writable Auxiliaries (3.3.3.1).
            guard p.read == .open else {
                throw .invalidPermissions(path: path, reason: "a User Description is readable with no requirement")
            }
            guard (p.write != nil) == extendedProperties.contains(.writableAuxiliaries) else {
                throw .invalidPermissions(path: path,
                                          reason: "a User Description is writable exactly when the characteristic has Writable Auxiliaries")
            }
        default:
            break
        }
    }

    // MARK: 4. Attributes

    static func assemble(_ sorted: [PlacedService], targets: [[Int]],
                         byIndex placed: [PlacedService]) throws(GATTDatabaseError) -> GATTDatabase {
        var attributes: [GATTAttribute] = []
        var services: [GATTService] = []
        services.reserveCapacity(sorted.count)
        for service in sorted {
            let type = service.definition.isPrimary ? GATTAttributeType.primaryService : GATTAttributeType.secondaryService
            attributes.append(GATTAttribute(handle: service.handle, type: type, permissions: .readOnly,
                                            value: .fixed(GATTServiceDeclaration(uuid: service.uuid).encoded)))
            var includes: [GATTIncludedService] = []
            for (j, handle) in service.includeHandles.enumerated() {
                let target = placed[targets[service.index][j]]
                let include = GATTIncludedService(handle: handle, serviceHandle: target.handle,
                                                  endGroupHandle: target.endGroupHandle, uuid: target.uuid)
                includes.append(include)
                attributes.append(GATTAttribute(handle: handle, type: GATTAttributeType.include, permissions: .readOnly,
                                                value: .fixed(include.declaration.encoded)))
            }
            var characteristics: [GATTCharacteristic] = []
            for (j, c) in service.characteristics.enumerated() {
                let end = j + 1 < service.characteristics.count
                    ? service.characteristics[j + 1].handle - 1 : service.endGroupHandle
                let characteristic = makeCharacteristic(c, endHandle: end)
                characteristics.append(characteristic)
                attributes.append(GATTAttribute(handle: c.handle, type: GATTAttributeType.characteristic, permissions: .readOnly,
                                                value: .fixed(characteristic.declaration.encoded)))
                attributes.append(GATTAttribute(handle: c.valueHandle, type: characteristic.uuid,
                                                permissions: characteristic.permissions, value: characteristic.value))
                for d in characteristic.descriptors {
                    attributes.append(GATTAttribute(handle: d.handle, type: d.type, permissions: d.permissions, value: d.value))
                }
            }
            services.append(GATTService(handle: service.handle, endGroupHandle: service.endGroupHandle, uuid: service.uuid,
                                        isPrimary: service.definition.isPrimary, id: service.definition.id,
                                        includes: includes, characteristics: characteristics))
        }
        let hash = try GATTDatabaseHash.characteristicValue(attributes)
        return GATTDatabase(attributes: attributes, services: services, databaseHash: hash)
    }

    static func makeCharacteristic(_ c: PlacedCharacteristic, endHandle: UInt16) -> GATTCharacteristic {
        let formatHandles = c.descriptors.filter { $0.content.type == GATTAttributeType.characteristicPresentationFormat }.map(\.handle)
        let descriptors = c.descriptors.map { d -> GATTDescriptor in
            let value: GATTAttributeValue
            switch d.content {
            case .clientCharacteristicConfiguration, .serverCharacteristicConfiguration: value = .fixed([0x00, 0x00])
            case .extendedProperties: value = .fixed(c.definition.extendedProperties.encoded)
            case .userDescription(let text): value = .text(text)
            case .presentationFormat(let format): value = .fixed(format.encoded)
            case .aggregateFormat: value = .fixed(GATTAggregateFormat(handles: formatHandles).encoded)
            case .other(_, let raw): value = raw
            }
            return GATTDescriptor(handle: d.handle, type: d.content.type, permissions: d.permissions, value: value, content: d.content)
        }
        return GATTCharacteristic(declarationHandle: c.handle, valueHandle: c.valueHandle, endHandle: endHandle,
                                  uuid: GATTLayouts.attUUID(c.definition.uuid), properties: c.properties,
                                  extendedProperties: c.definition.extendedProperties,
                                  permissions: c.definition.permissions ?? c.definition.defaultPermissions,
                                  value: c.definition.value, descriptors: descriptors)
    }
}
