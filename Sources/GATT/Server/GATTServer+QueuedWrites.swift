import ATT

/// Queued writes: Prepare Write and Execute Write (Core v5.4, Vol 3, Part F, 3.4.6; Part G,
/// 4.9.4 Write Long Characteristic Values and 4.9.5 Reliable Writes).
extension GATTServer {
    /// ATT_PREPARE_WRITE_REQ (Part F, 3.4.6.1): queues the part and echoes it.
    ///
    /// Checked when the part arrives: the PDU's length against the ATT_MTU (Invalid PDU, see
    /// ``respond(to:connection:)``), Invalid Handle, the write permission check ("sufficient
    /// permissions to allow writing at this time"), the reliable-write check, and the queue's
    /// bound (Prepare Queue Full, 0x09). Offsets and lengths are checked at execution, as the note
    /// of 3.4.6.1 requires. A refused part is "considered to have not been received": the queue
    /// is unchanged.
    ///
    /// The reliable-write check: a queue that holds parts for more than one attribute is a
    /// Reliable Write (Part G, 4.9.5), which a characteristic value takes only when its
    /// Characteristic Extended Properties have the Reliable Write bit (Part G, 3.3.3.1); a part
    /// that would put a value without it in such a queue is answered Request Not Supported (0x06:
    /// the server does not support that request for the attribute). Descriptors need no bit; one
    /// attribute written long on its own (Part G, 4.9.4, 4.12.4) is not restricted.
    func prepareWrite(_ request: ATTPrepareWriteRequest, _ context: inout GATTRequestContext) async -> ATTPDU {
        let opcode = ATTPrepareWriteRequest.opcode, handle = request.handle
        guard let attribute = context.database.attribute(at: handle) else { return Self.error(opcode, handle, .invalidHandle) }
        if let code = await permissionError(attribute, .write, &context) { return Self.error(opcode, handle, code) }
        if let queued = states[context.id]?.prepareQueue.entries, queued.contains(where: { $0.handle != handle }) {
            var handles = Set(queued.map(\.handle))
            handles.insert(handle)
            for value in handles {
                if let characteristic = context.database.characteristic(valueHandle: value),
                   !characteristic.extendedProperties.contains(.reliableWrite) {
                    return Self.error(opcode, handle, .requestNotSupported)
                }
            }
        }
        guard states[context.id]?.prepareQueue.append(handle: handle, offset: Int(request.valueOffset),
                                                       value: request.partAttributeValue) == true else {
            return Self.error(opcode, handle, .prepareQueueFull)
        }
        return .prepareWriteResponse(ATTPrepareWriteResponse(echoing: request))
    }

    /// ATT_EXECUTE_WRITE_REQ (Part F, 3.4.6.3): with Flags 0x00, discards the queue; with 0x01,
    /// writes it "as an atomic operation"; either way the queue is then empty and the answer is
    /// ATT_EXECUTE_WRITE_RSP, or ATT_ERROR_RSP naming the handle at fault. Other Flags values are
    /// reserved: Invalid PDU (3.3), the queue kept.
    ///
    /// Writing, in three passes so that a fault found anywhere writes nothing the server holds:
    /// 1. every part for a value the server holds (fixed values, CCCDs, Client Supported
    ///    Features) is applied, in order, to a copy: Invalid Offset (0x07) for an offset past the
    ///    value's current end, Invalid Attribute Value Length (0x0D) past its fixed length or 512
    ///    octets; then each resulting value is validated (Value Not Allowed, 0x13);
    /// 2. the parts for dynamic values (each checked first against 512 octets: Invalid Offset
    ///    for an offset past it, Invalid Attribute Value Length for a part that would pass it)
    ///    go to their write handlers in queue order, each with its
    ///    offset; the first error stops the execution (3.4.6.3: "The state of the attributes ...
    ///    is not defined in this case", so earlier handler calls stand). With a
    ///    ``setQueuedWriteHandler(_:)`` handler, they go to it together instead, in one call,
    ///    and its refusal names the handle and code of the error response;
    /// 3. the copies are stored.
    /// Parts queued before the database was replaced fail the whole queue with Database Out Of
    /// Sync (0x12), naming the first such part's handle.
    func executeWrite(_ request: ATTExecuteWriteRequest, _ context: inout GATTRequestContext) async -> ATTPDU {
        let opcode = ATTExecuteWriteRequest.opcode
        guard request.flags.isDefined else { return Self.error(opcode, 0x0000, .invalidPDU) }
        guard let entries = states[context.id]?.prepareQueue.entries else { return Self.error(opcode, 0x0000, .unlikelyError) }
        states[context.id]?.prepareQueue.removeAll()
        guard request.flags == .immediatelyWriteAllPendingPreparedValues, !entries.isEmpty else {
            return .executeWriteResponse(ATTExecuteWriteResponse())
        }
        if let stale = entries.first(where: \.isStale) {
            // The one Database Out Of Sync a change-unaware client gets (Part G, 2.5.2.1): the
            // dispatcher's check passed an Execute Write, which names no handle, so it is
            // recorded here, and the client's next request is served.
            if states[context.id]?.isChangeAware == false { states[context.id]?.outOfSyncSent = true }
            return Self.error(opcode, stale.handle, .databaseOutOfSync)
        }

        // 1. Values the server holds, applied to copies.
        var copies: [UInt16: [UInt8]] = [:]
        var order: [GATTAttribute] = []
        var dynamic: [(attribute: GATTAttribute, entry: GATTPrepareQueue.Entry)] = []
        for entry in entries {
            guard let attribute = context.database.attribute(at: entry.handle) else {
                return Self.error(opcode, entry.handle, .invalidHandle)
            }
            if case .dynamic = attribute.value {
                // No value here to check the offset against, but none passes 512 octets (Part
                // F, 3.2.9): what would go past that never reaches the handler.
                let offset = Int(entry.offset)
                if offset > Self.maximumValueLength { return Self.error(opcode, entry.handle, .invalidOffset) }
                if entry.value.count > Self.maximumValueLength - offset {
                    return Self.error(opcode, entry.handle, .invalidAttributeValueLength)
                }
                dynamic.append((attribute, entry))
                continue
            }
            guard let current = copies[entry.handle] ?? currentValue(attribute, context) else {
                return Self.error(opcode, entry.handle, .unlikelyError)
            }
            switch Self.apply(entry.value, at: entry.offset, to: current, fixedLength: Self.fixedWriteLength(attribute)) {
            case .failure(let code): return Self.error(opcode, entry.handle, code)
            case .success(let value):
                if copies[entry.handle] == nil { order.append(attribute) }
                copies[entry.handle] = value
            }
        }
        for attribute in order {
            if let code = validate(copies[attribute.handle] ?? [], for: attribute, context) {
                return Self.error(opcode, attribute.handle, code)
            }
        }
        // 2. Dynamic values, in queue order: together to the queued write handler, or each to
        // its value's write handler.
        for (attribute, entry) in dynamic {
            guard case .dynamic(let handlers) = attribute.value, handlers.write != nil else {
                return Self.error(opcode, entry.handle, .writeNotPermitted)
            }
        }
        if let batch = queuedWriteHandler, !dynamic.isEmpty {
            do throws(GATTQueuedWriteRefusal) {
                try await batch(dynamic.map { GATTQueuedWrite(handle: $0.entry.handle, offset: $0.entry.offset, value: $0.entry.value) },
                                context.peer)
            } catch {
                return Self.error(opcode, error.handle, error.code)
            }
        } else {
            for (attribute, entry) in dynamic {
                guard case .dynamic(let handlers) = attribute.value, let write = handlers.write else { continue }
                do throws(ATTErrorCode) {
                    try await write(entry.value, entry.offset, context.peer)
                } catch {
                    return Self.error(opcode, entry.handle, error)
                }
            }
        }
        // 3. Store the copies.
        for attribute in order {
            commit(copies[attribute.handle] ?? [], to: attribute, context)
        }
        return .executeWriteResponse(ATTExecuteWriteResponse())
    }
}
