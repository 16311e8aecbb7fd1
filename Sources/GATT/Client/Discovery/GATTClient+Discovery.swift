import ATT
import BLECore

/// Primary service, relationship, characteristic and descriptor discovery (Core v5.4, Vol 3,
/// Part G, 4.4 to 4.7).
///
/// Every loop here follows the same rules:
/// - it asks for `start...end` and moves `start` past the last handle the response listed;
/// - ATT_ERROR_RSP Attribute Not Found (0x0A) ends it, as does a response that reaches `end`
///   (a last handle of 0xFFFF ends it without overflow);
/// - each listed handle must lie at or after `start` (or after the previous entry) and at or
///   before `end`, else ``GATTClientError/ProtocolViolation/handleOutOfRange(request:handle:expected:)``:
///   a server that repeats itself or goes back cannot keep the loop running.
/// As every response moves `start` forward by at least one, a loop makes at most 65,535 requests.
extension GATTClient {
    /// Discover All Primary Services (4.4.1): ATT_READ_BY_GROUP_TYPE_REQ for «Primary Service»
    /// over 0x0001...0xFFFF until Attribute Not Found or the end.
    ///
    /// - Returns: the primary services in handle order, without includes or characteristics.
    /// - Throws: ``GATTClientError``; a malformed service UUID is a
    ///   ``GATTClientError/ProtocolViolation/malformedValue(handle:_:)``.
    public func discoverPrimaryServices() async throws(GATTClientError) -> [RemoteService] {
        try await restartingOnOutOfSync { () async throws(GATTClientError) -> [RemoteService] in
            try await primaryServices(in: 0x0001...0xFFFF)
        }
    }

    /// Discover Primary Service by Service UUID (4.4.2): ATT_FIND_BY_TYPE_VALUE_REQ for
    /// «Primary Service» with the UUID as the value (16 bits when it has a 16-bit form, else
    /// 128), until Attribute Not Found or the end.
    ///
    /// - Returns: every primary service with `uuid`, in handle order (a server may have several).
    public func discoverPrimaryServices(uuid: BluetoothUUID) async throws(GATTClientError) -> [RemoteService] {
        try await restartingOnOutOfSync { () async throws(GATTClientError) -> [RemoteService] in
            try await primaryServices(uuid: uuid, in: 0x0001...0xFFFF)
        }
    }

    /// Find Included Services (4.5.1): ATT_READ_BY_TYPE_REQ for «Include» over the service's
    /// handles. An include of a service with a 128-bit UUID carries no UUID, so the client
    /// reads the included service's declaration with ATT_READ_REQ to learn it.
    ///
    /// - Returns: the includes in handle order.
    public func discoverIncludedServices(of service: RemoteService) async throws(GATTClientError) -> [RemoteIncludedService] {
        try await restartingOnOutOfSync { () async throws(GATTClientError) -> [RemoteIncludedService] in
            try await includedServices(in: service.handleRange)
        }
    }

    /// Discover All Characteristics of a Service (4.6.1): ATT_READ_BY_TYPE_REQ for
    /// «Characteristic» over the service's handles. Each characteristic ends before the next
    /// declaration; the last ends with the service.
    ///
    /// - Returns: the characteristics in handle order, without descriptors.
    /// - Throws: ``GATTClientError``; a declaration whose value handle does not follow it within
    ///   the service is a ``GATTClientError/ProtocolViolation/handleOutOfRange(request:handle:expected:)``.
    ///
    /// In the Generic Attribute service, it also learns where Service Changed is (Part G, 7.1),
    /// so its indications start a rediscovery and reach ``serviceChanges`` for a caller that
    /// discovers service by service and enables them itself.
    public func discoverCharacteristics(of service: RemoteService) async throws(GATTClientError) -> [RemoteCharacteristic] {
        let found = try await restartingOnOutOfSync { () async throws(GATTClientError) -> [RemoteCharacteristic] in
            try await characteristics(in: service.handleRange)
        }
        if service.uuid == GATTProfileUUID.genericAttribute,
           let serviceChanged = found.first(where: { $0.uuid == GATTProfileUUID.serviceChanged }) {
            learnedServiceChangedValueHandle = serviceChanged.valueHandle
        }
        return found
    }

    /// Tells the client where the server's Service Changed characteristic is (its value handle,
    /// Part G, 7.1), from a tree discovered on an earlier connection and confirmed since, as a
    /// state restoration confirms it by an unchanged Database Hash (7.3), with no discovery on
    /// this connection. Its indications then start the same handling as after
    /// ``discoverCharacteristics(of:)`` in the Generic Attribute service: a rediscovery where the
    /// client holds the tree, and the range on ``serviceChanges``. A whole tree the client
    /// discovered itself keeps its own.
    public func learnServiceChanged(valueHandle: UInt16) {
        learnedServiceChangedValueHandle = valueHandle
    }

    /// Discover Characteristics by UUID (4.6.2): all the service's characteristics, as 4.6.1
    /// finds them, keeping those with `uuid` (their end handles come from the whole list).
    public func discoverCharacteristics(of service: RemoteService, uuid: BluetoothUUID) async throws(GATTClientError) -> [RemoteCharacteristic] {
        try await discoverCharacteristics(of: service).filter { $0.uuid == uuid }
    }

    /// Discover All Characteristic Descriptors (4.7.1): ATT_FIND_INFORMATION_REQ over the
    /// handles after the characteristic's value, up to its end. Sends nothing when the value
    /// is the characteristic's last handle.
    ///
    /// - Returns: the descriptors in handle order.
    public func discoverDescriptors(of characteristic: RemoteCharacteristic) async throws(GATTClientError) -> [RemoteDescriptor] {
        guard let range = characteristic.descriptorRange else { return [] }
        return try await restartingOnOutOfSync { () async throws(GATTClientError) -> [RemoteDescriptor] in
            try await descriptors(in: range)
        }
    }

    // MARK: The loops (never recovering by themselves: a 0x12 restarts the whole procedure)

    /// Read By Group Type for «Primary Service» over `range`.
    func primaryServices(in range: ClosedRange<UInt16>) async throws(GATTClientError) -> [RemoteService] {
        var found: [RemoteService] = []
        var start = Int(range.lowerBound)
        let end = range.upperBound
        while start <= Int(end) {
            let request = ATTReadByGroupTypeRequest(startingHandle: UInt16(start), endingHandle: end,
                                                    attributeGroupType: GATTAttributeType.primaryService)
            let response = try await exchange(.readByGroupTypeRequest(request), recovering: false)
            guard case .readByGroupTypeResponse(let list) = response else {
                if Self.isAttributeNotFound(response) { break }
                throw Self.failure(response)
            }
            for entry in list.attributeData {
                try Self.check(entry.handle, from: start, to: end, request: .readByGroupTypeRequest)
                guard entry.endGroupHandle >= entry.handle else {
                    throw .protocolViolation(.handleOutOfRange(request: .readByGroupTypeRequest, handle: entry.endGroupHandle,
                                                               expected: entry.handle...0xFFFF))
                }
                let uuid = try RemoteDeclarations.serviceUUID(entry.value, handle: entry.handle)
                found.append(RemoteService(uuid: uuid, handle: entry.handle, endHandle: entry.endGroupHandle))
                start = Int(entry.endGroupHandle) + 1
            }
        }
        return found
    }

    /// Find By Type Value for «Primary Service» with `uuid` over `range`.
    func primaryServices(uuid: BluetoothUUID, in range: ClosedRange<UInt16>) async throws(GATTClientError) -> [RemoteService] {
        let value = uuid.uuid16.map { BluetoothUUID($0).littleEndianOctets } ?? uuid.as128Bit.littleEndianOctets
        var found: [RemoteService] = []
        var start = Int(range.lowerBound)
        let end = range.upperBound
        while start <= Int(end) {
            let request = ATTFindByTypeValueRequest(startingHandle: UInt16(start), endingHandle: end,
                                                    attributeType: 0x2800, attributeValue: value)
            let response = try await exchange(.findByTypeValueRequest(request), recovering: false)
            guard case .findByTypeValueResponse(let list) = response else {
                if Self.isAttributeNotFound(response) { break }
                throw Self.failure(response)
            }
            for entry in list.handlesInformation {
                try Self.check(entry.foundAttributeHandle, from: start, to: end, request: .findByTypeValueRequest)
                guard entry.groupEndHandle >= entry.foundAttributeHandle else {
                    throw .protocolViolation(.handleOutOfRange(request: .findByTypeValueRequest, handle: entry.groupEndHandle,
                                                               expected: entry.foundAttributeHandle...0xFFFF))
                }
                found.append(RemoteService(uuid: uuid, handle: entry.foundAttributeHandle, endHandle: entry.groupEndHandle))
                start = Int(entry.groupEndHandle) + 1
            }
        }
        return found
    }

    /// Read By Type for «Include» over `range`, then a Read of each included service whose
    /// UUID is 128 bits.
    func includedServices(in range: ClosedRange<UInt16>) async throws(GATTClientError) -> [RemoteIncludedService] {
        var found: [(declaration: UInt16, service: UInt16, end: UInt16, uuid: BluetoothUUID?)] = []
        try await readByType(GATTAttributeType.include, in: range) { (entry) throws(GATTClientError) in
            let include = try RemoteDeclarations.include(entry.value, handle: entry.handle)
            found.append((entry.handle, include.serviceHandle, include.endHandle, include.uuid))
        }
        var includes: [RemoteIncludedService] = []
        includes.reserveCapacity(found.count)
        for include in found {
            let uuid: BluetoothUUID
            if let known = include.uuid {
                uuid = known
            } else {
                let response = try await exchange(.readRequest(ATTReadRequest(handle: include.service)), recovering: false)
                guard case .readResponse(let read) = response else { throw Self.failure(response) }
                uuid = try RemoteDeclarations.serviceUUID(read.value, handle: include.service)
            }
            includes.append(RemoteIncludedService(declarationHandle: include.declaration, serviceHandle: include.service,
                                                  endHandle: include.end, uuid: uuid))
        }
        return includes
    }

    /// Read By Type for «Characteristic» over `range`; end handles from the whole list.
    func characteristics(in range: ClosedRange<UInt16>) async throws(GATTClientError) -> [RemoteCharacteristic] {
        var found: [RemoteCharacteristic] = []
        try await readByType(GATTAttributeType.characteristic, in: range) { (entry) throws(GATTClientError) in
            let declaration = try RemoteDeclarations.characteristic(entry.value, handle: entry.handle)
            // The value follows its declaration inside the service (Part G, 3.3.1).
            guard entry.handle < range.upperBound, declaration.valueHandle > entry.handle,
                  declaration.valueHandle <= range.upperBound else {
                throw .protocolViolation(.handleOutOfRange(request: .readByTypeRequest, handle: declaration.valueHandle,
                                                           expected: min(entry.handle &+ 1, range.upperBound)...range.upperBound))
            }
            // The previous characteristic's value comes before this declaration.
            if let previous = found.last, previous.valueHandle >= entry.handle {
                let lower = min(previous.valueHandle == .max ? .max : previous.valueHandle + 1, range.upperBound)
                throw .protocolViolation(.handleOutOfRange(request: .readByTypeRequest, handle: entry.handle,
                                                           expected: lower...range.upperBound))
            }
            found.append(RemoteCharacteristic(uuid: declaration.uuid, declarationHandle: entry.handle,
                                              valueHandle: declaration.valueHandle, endHandle: range.upperBound,
                                              properties: declaration.properties))
        }
        for index in found.indices.dropLast() {
            found[index].endHandle = found[index + 1].declarationHandle - 1
        }
        return found
    }

    /// Find Information over `range`.
    func descriptors(in range: ClosedRange<UInt16>) async throws(GATTClientError) -> [RemoteDescriptor] {
        var found: [RemoteDescriptor] = []
        var start = Int(range.lowerBound)
        let end = range.upperBound
        while start <= Int(end) {
            let request = ATTFindInformationRequest(startingHandle: UInt16(start), endingHandle: end)
            let response = try await exchange(.findInformationRequest(request), recovering: false)
            guard case .findInformationResponse(let list) = response else {
                if Self.isAttributeNotFound(response) { break }
                throw Self.failure(response)
            }
            for pair in list.information {
                try Self.check(pair.handle, from: start, to: end, request: .findInformationRequest)
                found.append(RemoteDescriptor(handle: pair.handle, uuid: pair.type))
                start = Int(pair.handle) + 1
            }
        }
        return found
    }

    /// The Read By Type loop of 4.5.1 and 4.6.1: every attribute of `type` in `range`, in
    /// handle order, each handed to `body`.
    func readByType(_ type: BluetoothUUID, in range: ClosedRange<UInt16>,
                    _ body: (ATTReadByTypeResponse.AttributeData) throws(GATTClientError) -> Void) async throws(GATTClientError) {
        var start = Int(range.lowerBound)
        let end = range.upperBound
        while start <= Int(end) {
            let request = ATTReadByTypeRequest(startingHandle: UInt16(start), endingHandle: end, attributeType: type)
            let response = try await exchange(.readByTypeRequest(request), recovering: false)
            guard case .readByTypeResponse(let list) = response else {
                if Self.isAttributeNotFound(response) { return }
                throw Self.failure(response)
            }
            for entry in list.attributeData {
                try Self.check(entry.handle, from: start, to: end, request: .readByTypeRequest)
                try body(entry)
                start = Int(entry.handle) + 1
            }
        }
    }

    /// The whole tree under `range`: the primary services in it, then each one's includes,
    /// characteristics and descriptors, and the same for every service an include names
    /// (primary or secondary, Part G, 4.5.1), breadth first.
    ///
    /// Each service is walked once, however many services include it, and an include cycle
    /// ends where it meets a service already walked or queued. The services in `kept` (those a
    /// Service Changed indication left alone) are not walked again, but their includes are
    /// followed to services that are not known. An include that names a range overlapping a
    /// known service without being it is not followed (a ``GATTClientDiagnostic``): its
    /// attributes are that service's. Include declarations that are malformed skip that
    /// service's includes, with a diagnostic (``includesOfTree(_:)``).
    ///
    /// - Returns: `kept` and every service found, in handle order; a service reached only
    ///   through an include has ``RemoteService/isPrimary`` false (a kept one that no include
    ///   names any more is dropped).
    func discoverTree(in range: ClosedRange<UInt16>, keeping kept: [RemoteService] = []) async throws(GATTClientError) -> [RemoteService] {
        var queue = try await primaryServices(in: range)
        var known = kept + queue
        var walked = kept
        for service in kept { follow(service.includedServices, known: &known, queue: &queue) }
        var index = 0
        while index < queue.count {
            var service = queue[index]
            index += 1
            service.includedServices = try await includesOfTree(service)
            var characteristics = try await self.characteristics(in: service.handleRange)
            for c in characteristics.indices {
                if let descriptorRange = characteristics[c].descriptorRange {
                    characteristics[c].descriptors = try await descriptors(in: descriptorRange)
                }
            }
            service.characteristics = characteristics
            walked.append(service)
            follow(service.includedServices, known: &known, queue: &queue)
        }
        // A kept secondary service that no include names any more (its includer changed) is gone.
        let named = Set(walked.flatMap { $0.includedServices.map(\.serviceHandle) })
        return walked.filter { $0.isPrimary || named.contains($0.handle) }.sorted { $0.handle < $1.handle }
    }

    /// Find Included Services (4.5.1) for whole-database discovery. An answer whose values are
    /// not include declarations (a server that answers every Read By Type Request with the
    /// same attributes, whatever type is asked: a characteristic declaration is 5 or 19 octets,
    /// an include 4 or 6), or whose included 128-bit service declaration is malformed, gives a
    /// diagnostic and no includes for the service: the rest of the tree is still discovered.
    private func includesOfTree(_ service: RemoteService) async throws(GATTClientError) -> [RemoteIncludedService] {
        do {
            return try await includedServices(in: service.handleRange)
        } catch {
            guard case .protocolViolation(.malformedValue) = error else { throw error }
            record(GATTClientDiagnostic(step: .findIncludedServices(serviceHandle: service.handle), problem: .failed(error),
                                        consequence: .includesSkipped))
            return []
        }
    }

    /// Queues the services `includes` name that are not `known` yet (and makes them known).
    private func follow(_ includes: [RemoteIncludedService], known: inout [RemoteService], queue: inout [RemoteService]) {
        for include in includes {
            if known.contains(where: { $0.handle == include.serviceHandle }) { continue }     // shared, or a cycle
            if let other = known.first(where: { $0.handleRange.overlaps(include.handleRange) }) {
                record(GATTClientDiagnostic(step: .include(declarationHandle: include.declarationHandle),
                                            problem: .includeOverlapsService(range: include.handleRange, conflicting: other.handleRange),
                                            consequence: .includeNotFollowed))
                continue
            }
            let service = include.service
            known.append(service)
            queue.append(service)
        }
    }

    // MARK: Loop checks

    /// Whether `response` is ATT_ERROR_RSP Attribute Not Found, the end of a discovery loop.
    static func isAttributeNotFound(_ response: ATTPDU) -> Bool {
        if case .errorResponse(let error) = response { return error.errorCode == .attributeNotFound }
        return false
    }

    /// Requires `handle` to lie in `start...end`; `start` may have passed `end` (then nothing fits).
    static func check(_ handle: UInt16, from start: Int, to end: UInt16, request: ATTOpcode) throws(GATTClientError) {
        guard Int(handle) >= start, handle <= end else {
            let lower = UInt16(clamping: min(start, Int(end)))
            throw .protocolViolation(.handleOutOfRange(request: request, handle: handle, expected: lower...end))
        }
    }

    /// Runs `body`; if it fails with Database Out Of Sync (0x12), recovers and runs it once more.
    func restartingOnOutOfSync<T>(_ body: () async throws(GATTClientError) -> T) async throws(GATTClientError) -> T {
        do {
            return try await body()
        } catch {
            guard error.attErrorCode == .databaseOutOfSync else { throw error }
            try await recoverFromOutOfSync(handles: [])
            return try await body()
        }
    }
}
