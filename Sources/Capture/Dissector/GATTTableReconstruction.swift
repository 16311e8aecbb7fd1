import ATT
import BLECore
import GATT

/// A server's attribute table as far as one capture reveals it: learned from the GATT
/// discovery procedures that the client ran in the same capture (Core v5.4, Vol 3, Part G, 4.4-4.7),
/// by pairing each response with the request it answers.
///
/// - Read By Group Type (Primary or Secondary Service) responses give services and their ranges.
/// - Find By Type Value (Primary Service by UUID) responses give services of the requested UUID.
/// - Read By Type (Characteristic, Include) responses give characteristic and include declarations.
/// - Find Information responses give descriptors (and confirm value handles).
/// - Read responses for the Device Name characteristic give the server's name.
///
/// Declaration values are read with GATT's own codecs (``GATTServiceDeclaration``,
/// ``GATTCharacteristicDeclaration``, ``GATTIncludeDeclaration``); one that does not decode
/// teaches nothing. It never invents anything: a handle the capture does not explain has no
/// annotation.
public struct ReconstructedGATTTable: Sendable, Equatable {
    /// A service declaration (Core v5.4, Vol 3, Part G, 3.1).
    public struct Service: Sendable, Equatable {
        public var handle: UInt16
        public var endGroupHandle: UInt16
        public var uuid: BluetoothUUID
        public var isPrimary: Bool
    }

    /// A characteristic declaration and the value it declares (Core v5.4, Vol 3, Part G, 3.3.1).
    public struct Characteristic: Sendable, Equatable {
        public var declarationHandle: UInt16
        /// Characteristic Properties bit field (3.3.1.1).
        public var properties: UInt8
        public var valueHandle: UInt16
        public var uuid: BluetoothUUID
    }

    /// An include declaration (Core v5.4, Vol 3, Part G, 3.2).
    public struct Include: Sendable, Equatable {
        public var handle: UInt16
        public var includedServiceHandle: UInt16
        public var endGroupHandle: UInt16
        /// Present when the included service has a 16-bit UUID; 128-bit ones need a Read.
        public var uuid: BluetoothUUID?
    }

    /// Services by declaration handle.
    public private(set) var services: [UInt16: Service] = [:]
    /// Characteristics by declaration handle.
    public private(set) var characteristics: [UInt16: Characteristic] = [:]
    /// Include declarations by handle.
    public private(set) var includes: [UInt16: Include] = [:]
    /// Attribute types learned from Find Information that are not declarations or values:
    /// descriptors, by handle.
    public private(set) var descriptors: [UInt16: BluetoothUUID] = [:]
    /// Characteristic value handle to declaration handle.
    var valueHandles: [UInt16: UInt16] = [:]
    /// Every characteristic declaration handle, ascending, to find a descriptor's owner by
    /// binary search.
    var declarationHandles: [UInt16] = []
    /// Every service declaration handle, ascending, to find the service around a handle.
    var serviceHandles: [UInt16] = []
    /// The server's Device Name (0x2A00) when the capture read it.
    public private(set) var deviceName: String?

    public init() {}

    /// Whether anything was learned.
    public var isEmpty: Bool { services.isEmpty && characteristics.isEmpty && descriptors.isEmpty && includes.isEmpty }

    static let primaryService = GATTAttributeType.primaryService
    static let secondaryService = GATTAttributeType.secondaryService
    static let include = GATTAttributeType.include
    static let characteristic = GATTAttributeType.characteristic
    static let deviceNameUUID = GATTProfileUUID.deviceName

    /// Learns from `response`, which answers `request` (the same bearer, the other direction).
    public mutating func learn(request: ATTPDU, response: ATTPDU) {
        switch (request, response) {
        case let (.readByGroupTypeRequest(req), .readByGroupTypeResponse(rsp)):
            let isPrimary = req.attributeGroupType == Self.primaryService
            guard isPrimary || req.attributeGroupType == Self.secondaryService else { return }
            for data in rsp.attributeData {
                guard let uuid = try? GATTServiceDeclaration(decoding: data.value).uuid else { continue }
                if services[data.handle] == nil { serviceHandles.insert(data.handle, at: Self.insertionIndex(of: data.handle, in: serviceHandles)) }
                services[data.handle] = Service(handle: data.handle, endGroupHandle: data.endGroupHandle, uuid: uuid, isPrimary: isPrimary)
            }
        case let (.findByTypeValueRequest(req), .findByTypeValueResponse(rsp)):
            guard req.attributeTypeUUID == Self.primaryService, let uuid = try? GATTServiceDeclaration(decoding: req.attributeValue).uuid else { return }
            for info in rsp.handlesInformation {
                if services[info.foundAttributeHandle] == nil { serviceHandles.insert(info.foundAttributeHandle, at: Self.insertionIndex(of: info.foundAttributeHandle, in: serviceHandles)) }
                services[info.foundAttributeHandle] = Service(handle: info.foundAttributeHandle, endGroupHandle: info.groupEndHandle,
                                                             uuid: uuid, isPrimary: true)
            }
        case let (.readByTypeRequest(req), .readByTypeResponse(rsp)):
            if req.attributeType == Self.characteristic {
                for data in rsp.attributeData { learnCharacteristic(declarationHandle: data.handle, value: data.value) }
            } else if req.attributeType == Self.include {
                for data in rsp.attributeData { learnInclude(handle: data.handle, value: data.value) }
            } else if req.attributeType == Self.deviceNameUUID, let first = rsp.attributeData.first {
                deviceName = String(decoding: first.value, as: UTF8.self)
            }
        case let (.findInformationRequest, .findInformationResponse(rsp)):
            for info in rsp.information {
                switch info.type {
                case Self.primaryService, Self.secondaryService, Self.include, Self.characteristic: continue
                default:
                    if valueHandles[info.handle] == nil { descriptors[info.handle] = info.type }
                }
            }
        case let (.readRequest(req), .readResponse(rsp)):
            if characteristic(withValueHandle: req.handle)?.uuid == Self.deviceNameUUID {
                deviceName = String(decoding: rsp.value, as: UTF8.self)
            }
        default:
            return
        }
    }

    mutating func learnCharacteristic(declarationHandle: UInt16, value: [UInt8]) {
        guard let declaration = try? GATTCharacteristicDeclaration(decoding: value) else { return }
        if characteristics[declarationHandle] == nil {
            declarationHandles.insert(declarationHandle, at: Self.insertionIndex(of: declarationHandle, in: declarationHandles))
        }
        characteristics[declarationHandle] = Characteristic(declarationHandle: declarationHandle,
                                                            properties: declaration.properties.rawValue,
                                                            valueHandle: declaration.valueHandle, uuid: declaration.uuid)
        valueHandles[declaration.valueHandle] = declarationHandle
        descriptors[declaration.valueHandle] = nil
    }

    mutating func learnInclude(handle: UInt16, value: [UInt8]) {
        guard let declaration = try? GATTIncludeDeclaration(decoding: value) else { return }
        includes[handle] = Include(handle: handle, includedServiceHandle: declaration.includedServiceHandle,
                                   endGroupHandle: declaration.endGroupHandle, uuid: declaration.serviceUUID)
    }

    /// The characteristic whose value lives at `handle`.
    public func characteristic(withValueHandle handle: UInt16) -> Characteristic? {
        valueHandles[handle].flatMap { characteristics[$0] }
    }

    /// The characteristic that owns the descriptor at `handle`: the one with the greatest
    /// declaration handle below it (Core v5.4, Vol 3, Part G, 3.3.3), found in O(log n), and in
    /// the same discovered service (or, like it, in none): the table prints it the same way.
    func owner(ofDescriptor handle: UInt16) -> Characteristic? {
        let index = Self.insertionIndex(of: handle, in: declarationHandles)
        guard index > 0, let candidate = characteristics[declarationHandles[index - 1]] else { return nil }
        guard service(containing: handle)?.handle == service(containing: candidate.declarationHandle)?.handle else { return nil }
        return candidate
    }

    /// The discovered service whose range holds `handle`, found in O(log n).
    func service(containing handle: UInt16) -> Service? {
        var index = Self.insertionIndex(of: handle, in: serviceHandles)   // the first start >= handle
        if index < serviceHandles.count, serviceHandles[index] == handle { index += 1 }
        guard index > 0, let service = services[serviceHandles[index - 1]],
              service.handle <= handle, handle <= service.endGroupHandle else { return nil }
        return service
    }

    /// The index of the first element of ascending `sorted` that is not below `value`.
    static func insertionIndex(of value: UInt16, in sorted: [UInt16]) -> Int {
        var low = 0, high = sorted.count
        while low < high {
            let mid = (low + high) / 2
            if sorted[mid] < value { low = mid + 1 } else { high = mid }
        }
        return low
    }

    static func label(_ uuid: BluetoothUUID) -> String { uuid.name ?? uuid.description }

    /// What the attribute at `handle` is, as the capture revealed it: "Heart Rate Control Point",
    /// "Client Characteristic Configuration of Heart Rate Measurement", "Primary Service Heart Rate",
    /// "Characteristic declaration of Battery Level"; nil when the capture does not say.
    public func annotation(forHandle handle: UInt16) -> String? {
        if let c = characteristic(withValueHandle: handle) { return Self.label(c.uuid) }
        if let d = descriptors[handle] {
            if let owner = owner(ofDescriptor: handle) { return "\(Self.label(d)) of \(Self.label(owner.uuid))" }
            return Self.label(d)
        }
        if let c = characteristics[handle] { return "Characteristic declaration of \(Self.label(c.uuid))" }
        if let s = services[handle] { return "\(s.isPrimary ? "Primary" : "Secondary") Service \(Self.label(s.uuid))" }
        if let i = includes[handle] { return "Include of service 0x\(Hex.encode([UInt8(i.includedServiceHandle >> 8), UInt8(i.includedServiceHandle & 0xFF)]))" }
        return nil
    }

    /// The table as indented text lines in handle order: each service, then its includes,
    /// characteristics (with properties) and their descriptors; attributes outside every
    /// discovered service follow a "(outside any discovered service)" line. One pass over the
    /// attributes sorted by handle: O(n log n) however large the table.
    public func renderedLines() -> [String] {
        enum Item {
            case service(Service), include(Include), characteristic(Characteristic), descriptor(UInt16, BluetoothUUID)
        }
        var items: [(handle: UInt16, rank: Int, item: Item)] = []
        items.reserveCapacity(services.count + includes.count + characteristics.count + descriptors.count)
        for s in services.values { items.append((s.handle, 0, .service(s))) }
        for i in includes.values { items.append((i.handle, 1, .include(i))) }
        for c in characteristics.values { items.append((c.declarationHandle, 2, .characteristic(c))) }
        for (h, d) in descriptors { items.append((h, 3, .descriptor(h, d))) }
        items.sort { ($0.handle, $0.rank) < ($1.handle, $1.rank) }

        func hex(_ h: UInt16) -> String { "0x" + Hex.encode([UInt8(h >> 8), UInt8(h & 0xFF)]) }
        var lines: [String] = []
        var serviceEnd: UInt16?          // the current service's End Group Handle
        var outsideShown = false
        var owner: Characteristic?       // the characteristic descriptors attach to
        for (handle, _, item) in items {
            if case .service(let s) = item {
                lines.append("\(hex(s.handle))..\(hex(s.endGroupHandle)) \(s.isPrimary ? "Primary" : "Secondary") Service \(s.uuid.descriptionWithName)")
                serviceEnd = s.endGroupHandle   // a reversed range holds nothing but its declaration
                owner = nil
                outsideShown = false
                continue
            }
            if let end = serviceEnd, handle > end {
                serviceEnd = nil
                owner = nil
            }
            if serviceEnd == nil, !outsideShown {
                lines.append("(outside any discovered service)")
                outsideShown = true   // until the next service
            }
            switch item {
            case .include(let i):
                lines.append("  \(hex(i.handle)) Include \(hex(i.includedServiceHandle))..\(hex(i.endGroupHandle))\(i.uuid.map { " " + $0.descriptionWithName } ?? "")")
            case .characteristic(let c):
                owner = c
                lines.append("  \(hex(c.valueHandle)) Characteristic \(c.uuid.descriptionWithName) [\(Self.propertyNames(c.properties))]")
            case .descriptor(let h, let d):
                if let owner, h > owner.valueHandle {
                    lines.append("    \(hex(h)) Descriptor \(d.descriptionWithName)")
                } else {
                    lines.append("  \(hex(h)) Attribute \(d.descriptionWithName)")
                }
            case .service:
                break
            }
        }
        return lines
    }

    /// Characteristic Properties as names (Core v5.4, Vol 3, Part G, 3.3.1.1).
    public static func propertyNames(_ properties: UInt8) -> String {
        let names = ["broadcast", "read", "write without response", "write", "notify", "indicate",
                     "authenticated signed writes", "extended properties"]
        let set = (0..<8).filter { properties & (1 << $0) != 0 }.map { names[$0] }
        return set.isEmpty ? "none" : set.joined(separator: ", ")
    }
}
