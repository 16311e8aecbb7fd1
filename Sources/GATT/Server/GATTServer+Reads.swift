import ATT

/// The read requests: Read, Read Blob, Read Multiple and Read Multiple Variable (Core v5.4,
/// Vol 3, Part F, 3.4.4.3-3.4.4.12; Part G, 4.8).
extension GATTServer {
    /// ATT_READ_REQ (Part F, 3.4.4.3): the value, cut to ATT_MTU-1 octets (3.4.4.4).
    ///
    /// Errors, naming the handle: Invalid Handle (including 0x0000), then the permission check,
    /// then the handler's error for a dynamic value.
    func read(_ request: ATTReadRequest, _ context: inout GATTRequestContext) async -> ATTPDU {
        let opcode = ATTReadRequest.opcode, handle = request.handle
        guard let attribute = context.database.attribute(at: handle) else { return Self.error(opcode, handle, .invalidHandle) }
        if let code = await permissionError(attribute, .read, &context) { return Self.error(opcode, handle, code) }
        switch await readValue(attribute, offset: 0, limit: context.mtu - 1, context) {
        case .failure(let code): return Self.error(opcode, handle, code)
        case .success(let read): return .readResponse(ATTReadResponse(value: read.octets))
        }
    }

    /// ATT_READ_BLOB_REQ (Part F, 3.4.4.5): the value from Value Offset, at most ATT_MTU-1
    /// octets; empty when the offset is the value's length (3.4.4.6).
    ///
    /// Errors, naming the handle: Invalid Handle; the permission check; Attribute Not Long (0x0B)
    /// for a value of fixed length that fits ATT_MTU-1 (the "may" of 3.4.4.5, taken for the
    /// values whose length the server knows cannot change, see ``GATTServedDatabase/fixedLength(of:)``);
    /// Invalid Offset (0x07) past the end; the handler's error for a dynamic value.
    func readBlob(_ request: ATTReadBlobRequest, _ context: inout GATTRequestContext) async -> ATTPDU {
        let opcode = ATTReadBlobRequest.opcode, handle = request.handle
        guard let attribute = context.database.attribute(at: handle) else { return Self.error(opcode, handle, .invalidHandle) }
        if let code = await permissionError(attribute, .read, &context) { return Self.error(opcode, handle, code) }
        if let length = context.served.fixedLength(of: attribute), length <= context.mtu - 1 {
            return Self.error(opcode, handle, .attributeNotLong)
        }
        switch await readValue(attribute, offset: Int(request.valueOffset), limit: context.mtu - 1, context) {
        case .failure(let code): return Self.error(opcode, handle, code)
        case .success(let read): return .readBlobResponse(ATTReadBlobResponse(partAttributeValue: read.octets))
        }
    }

    /// ATT_READ_MULTIPLE_REQ (Part F, 3.4.4.7): the values concatenated in request order, cut to
    /// ATT_MTU-1 octets (3.4.4.8). Every handle is checked, even once the set is full.
    ///
    /// Errors, naming the first handle at fault: Invalid Handle, the permission check, a
    /// handler's error.
    func readMultiple(_ request: ATTReadMultipleRequest, _ context: inout GATTRequestContext) async -> ATTPDU {
        let opcode = ATTReadMultipleRequest.opcode
        let room = context.mtu - 1
        var set: [UInt8] = []
        set.reserveCapacity(room)
        for handle in request.setOfHandles {
            guard let attribute = context.database.attribute(at: handle) else { return Self.error(opcode, handle, .invalidHandle) }
            if let code = await permissionError(attribute, .read, &context) { return Self.error(opcode, handle, code) }
            switch await readValue(attribute, offset: 0, limit: room - set.count, context) {
            case .failure(let code): return Self.error(opcode, handle, code)
            case .success(let read): set += read.octets
            }
        }
        return .readMultipleResponse(ATTReadMultipleResponse(setOfValues: set))
    }

    /// ATT_READ_MULTIPLE_VARIABLE_REQ (Part F, 3.4.4.11): a Length Value Tuple per handle, in
    /// request order. The list is cut after ATT_MTU-1 octets, or at the start of a tuple whose
    /// Value Length would be split; so only the last tuple may be short of its Value Length
    /// (3.4.4.12). Every handle is checked, even once the list is full.
    ///
    /// Errors, naming the first handle at fault: Invalid Handle, the permission check, a
    /// handler's error.
    func readMultipleVariable(_ request: ATTReadMultipleVariableRequest, _ context: inout GATTRequestContext) async -> ATTPDU {
        let opcode = ATTReadMultipleVariableRequest.opcode
        let room = context.mtu - 1
        var used = 0
        var tuples: [ATTReadMultipleVariableResponse.LengthValueTuple] = []
        for handle in request.setOfHandles {
            guard let attribute = context.database.attribute(at: handle) else { return Self.error(opcode, handle, .invalidHandle) }
            if let code = await permissionError(attribute, .read, &context) { return Self.error(opcode, handle, code) }
            let space = room - used - 2   // value octets left after this tuple's Value Length
            switch await readValue(attribute, offset: 0, limit: max(0, space), context) {
            case .failure(let code):
                return Self.error(opcode, handle, code)
            case .success(let read):
                guard space >= 0 else { continue }   // no room for a whole Value Length: cut here
                let length = UInt16(clamping: read.length)
                tuples.append(ATTReadMultipleVariableResponse.LengthValueTuple(valueLength: length, includedValue: read.octets))
                used += 2 + read.octets.count
                if read.octets.count < Int(length) { used = room }   // the list is cut inside this value
            }
        }
        guard let response = try? ATTReadMultipleVariableResponse(tuples: tuples) else {
            return Self.error(opcode, 0x0000, .unlikelyError)
        }
        return .readMultipleVariableResponse(response)
    }
}
