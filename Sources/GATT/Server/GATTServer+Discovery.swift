import ATT
import BLECore

/// The discovery requests: Find Information, Find By Type Value, Read By Type and Read By Group
/// Type (Core v5.4, Vol 3, Part F, 3.4.3 and 3.4.4; Part G, 4.4-4.7).
extension GATTServer {
    /// Invalid Handle (0x01) naming `start` when the range starts at 0x0000 or is reversed (the
    /// rule every range request shares, Part F, 3.4.3.1, 3.4.3.3, 3.4.4.1, 3.4.4.9).
    static func rangeError(_ request: ATTOpcode, _ start: UInt16, _ end: UInt16) -> ATTPDU? {
        start == 0x0000 || start > end ? error(request, start, .invalidHandle) : nil
    }

    /// ATT_FIND_INFORMATION_REQ (Part F, 3.4.3.1): the handles and types in the range, all of one
    /// UUID width (that of the first attribute), as many pairs as fit in ATT_MTU-2.
    ///
    /// Errors: Invalid Handle, Attribute Not Found (naming the Starting Handle). No permission
    /// applies: attribute types are never protected.
    func findInformation(_ request: ATTFindInformationRequest, _ context: inout GATTRequestContext) -> ATTPDU {
        let start = request.startingHandle, end = request.endingHandle
        if let error = Self.rangeError(ATTFindInformationRequest.opcode, start, end) { return error }
        let attributes = context.database.attributes(in: start...end)
        guard let first = attributes.first else {
            return Self.error(ATTFindInformationRequest.opcode, start, .attributeNotFound)
        }
        let short = first.type.width == .bits16
        let format: ATTFindInformationResponse.Format = short ? .uuid16 : .uuid128
        let capacity = (context.mtu - 2) / format.pairLength
        var information: [ATTFindInformationResponse.Information] = []
        information.reserveCapacity(min(capacity, attributes.count))
        for attribute in attributes {
            // The response ends before the first attribute of the other width (3.4.3.2).
            guard (attribute.type.width == .bits16) == short, information.count < capacity else { break }
            information.append(ATTFindInformationResponse.Information(handle: attribute.handle, type: attribute.type))
        }
        guard let response = try? ATTFindInformationResponse(format: format, information: information) else {
            return Self.error(ATTFindInformationRequest.opcode, 0x0000, .unlikelyError)
        }
        return .findInformationResponse(response)
    }

    /// ATT_FIND_BY_TYPE_VALUE_REQ (Part F, 3.4.3.3): the attributes in the range with the 16-bit
    /// type whose value equals the request's, compared by length and octets, among those the
    /// client may read now; as many as fit in ATT_MTU-1. The Group End Handle is the service's
    /// for «Primary Service» and «Secondary Service», the characteristic's for «Characteristic»
    /// (the grouping types, Part G, 2.5.3), else the found handle.
    ///
    /// Errors: Invalid Handle, Attribute Not Found; never a security error nor Database Out Of
    /// Sync (3.4.3.3): an attribute the client may not read is skipped.
    func findByTypeValue(_ request: ATTFindByTypeValueRequest, _ context: inout GATTRequestContext) async -> ATTPDU {
        let start = request.startingHandle, end = request.endingHandle
        if let error = Self.rangeError(ATTFindByTypeValueRequest.opcode, start, end) { return error }
        let type = request.attributeTypeUUID
        let capacity = (context.mtu - 1) / 4
        var found: [ATTFindByTypeValueResponse.HandlesInformation] = []
        for attribute in context.database.attributes(in: start...end) where attribute.type == type {
            guard await permissionError(attribute, .read, &context) == nil else { continue }
            guard case .success(let read) = await readValue(attribute, offset: 0, limit: request.attributeValue.count, context),
                  read.length == request.attributeValue.count, read.octets == request.attributeValue else { continue }
            found.append(ATTFindByTypeValueResponse.HandlesInformation(
                foundAttributeHandle: attribute.handle, groupEndHandle: Self.groupEnd(of: attribute, in: context.database)))
            if found.count == capacity { break }
        }
        guard let response = try? ATTFindByTypeValueResponse(handlesInformation: found) else {
            return Self.error(ATTFindByTypeValueRequest.opcode, start, .attributeNotFound)
        }
        return .findByTypeValueResponse(response)
    }

    /// The last handle of the group `attribute` starts (Part G, 2.5.3): the End Group Handle of a
    /// service declaration, the end of a characteristic definition, or the handle itself.
    static func groupEnd(of attribute: GATTAttribute, in database: GATTDatabase) -> UInt16 {
        switch attribute.type {
        case GATTAttributeType.primaryService, GATTAttributeType.secondaryService:
            return database.service(declaredAt: attribute.handle)?.endGroupHandle ?? attribute.handle
        case GATTAttributeType.characteristic:
            return database.characteristic(containing: attribute.handle)?.endHandle ?? attribute.handle
        default:
            return attribute.handle
        }
    }

    /// ATT_READ_BY_TYPE_REQ (Part F, 3.4.4.1): the values of the attributes of the type in the
    /// range, lowest handles first. Every pair carries a value of the same length: the first
    /// value's, cut to ATT_MTU-4 or 253 octets; the list stops before the first attribute whose
    /// value has another length, that the client may not read, or whose read fails, and when the
    /// next pair would pass ATT_MTU-2 (3.4.4.2).
    ///
    /// Errors: Invalid Handle and Attribute Not Found (naming the Starting Handle); when the first
    /// attribute cannot be read, its error (Read Not Permitted, a security error, or its handler's
    /// error) naming its handle.
    func readByType(_ request: ATTReadByTypeRequest, _ context: inout GATTRequestContext) async -> ATTPDU {
        let opcode = ATTReadByTypeRequest.opcode
        let start = request.startingHandle, end = request.endingHandle
        if let error = Self.rangeError(opcode, start, end) { return error }
        let cap = min(context.mtu - 4, ATTReadByTypeResponse.maximumValueLength)
        var pairs: [ATTReadByTypeResponse.AttributeData] = []
        var firstLength = 0, capacity = 0
        scan: for attribute in context.database.attributes(in: start...end) where attribute.type == request.attributeType {
            if let code = await permissionError(attribute, .read, &context) {
                if pairs.isEmpty { return Self.error(opcode, attribute.handle, code) }
                break scan
            }
            switch await readValue(attribute, offset: 0, limit: cap, context) {
            case .failure(let code):
                if pairs.isEmpty { return Self.error(opcode, attribute.handle, code) }
                break scan
            case .success(let read):
                if pairs.isEmpty {
                    firstLength = read.length
                    capacity = (context.mtu - 2) / (2 + min(read.length, cap))
                } else if read.length != firstLength {
                    break scan
                }
                pairs.append(ATTReadByTypeResponse.AttributeData(handle: attribute.handle, value: read.octets))
                if pairs.count == capacity { break scan }
            }
        }
        guard let response = try? ATTReadByTypeResponse(attributeData: pairs) else {
            return Self.error(opcode, start, .attributeNotFound)
        }
        return .readByTypeResponse(response)
    }

    /// ATT_READ_BY_GROUP_TYPE_REQ (Part F, 3.4.4.9): the service declarations of the group type
    /// in the range with their End Group Handles, values of one length (cut to ATT_MTU-6 or 251
    /// octets), as many as fit in ATT_MTU-2 (3.4.4.10). GATT's grouping types for this request
    /// are «Primary Service» and «Secondary Service» (Part G, 2.5.3).
    ///
    /// Errors: Invalid Handle, Unsupported Group Type (0x10) and Attribute Not Found, naming the
    /// Starting Handle; a first attribute that cannot be read, naming its handle. Never Database
    /// Out Of Sync (3.4.4.9).
    func readByGroupType(_ request: ATTReadByGroupTypeRequest, _ context: inout GATTRequestContext) async -> ATTPDU {
        let opcode = ATTReadByGroupTypeRequest.opcode
        let start = request.startingHandle, end = request.endingHandle
        if let error = Self.rangeError(opcode, start, end) { return error }
        let type = request.attributeGroupType
        guard type == GATTAttributeType.primaryService || type == GATTAttributeType.secondaryService else {
            return Self.error(opcode, start, .unsupportedGroupType)
        }
        let cap = min(context.mtu - 6, ATTReadByGroupTypeResponse.maximumValueLength)
        var entries: [ATTReadByGroupTypeResponse.AttributeData] = []
        var firstLength = 0, capacity = 0
        scan: for attribute in context.database.attributes(in: start...end) where attribute.type == type {
            if let code = await permissionError(attribute, .read, &context) {
                if entries.isEmpty { return Self.error(opcode, attribute.handle, code) }
                break scan
            }
            switch await readValue(attribute, offset: 0, limit: cap, context) {
            case .failure(let code):
                if entries.isEmpty { return Self.error(opcode, attribute.handle, code) }
                break scan
            case .success(let read):
                if entries.isEmpty {
                    firstLength = read.length
                    capacity = (context.mtu - 2) / (4 + min(read.length, cap))
                } else if read.length != firstLength {
                    break scan
                }
                entries.append(ATTReadByGroupTypeResponse.AttributeData(
                    handle: attribute.handle, endGroupHandle: Self.groupEnd(of: attribute, in: context.database), value: read.octets))
                if entries.count == capacity { break scan }
            }
        }
        guard let response = try? ATTReadByGroupTypeResponse(attributeData: entries) else {
            return Self.error(opcode, start, .attributeNotFound)
        }
        return .readByGroupTypeResponse(response)
    }
}
