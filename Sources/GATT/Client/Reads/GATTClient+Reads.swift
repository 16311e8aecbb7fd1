import ATT
import BLECore

/// Characteristic value and descriptor reads (Core v5.4, Vol 3, Part G, 4.8 and 4.12.1-2).
/// A descriptor is read the same way as a value: by its handle.
extension GATTClient {
    /// Read Characteristic Value (4.8.1), or Read Characteristic Descriptor (4.12.1):
    /// ATT_READ_REQ for `handle`. It runs on the caller's executor and goes straight to the
    /// ATT engine, with no stop on the client's actor.
    ///
    /// - Returns: the value as the server sent it: at most ATT_MTU - 1 octets, so a longer
    ///   value arrives cut (``readLong(_:offset:)`` reads it whole).
    /// - Throws: ``GATTClientError/errorResponse(request:handle:code:)`` with the server's
    ///   reason (Read Not Permitted, Insufficient Authentication, ...), or a transport failure.
    public nonisolated(nonsending) func read(_ handle: UInt16) async throws(GATTClientError) -> [UInt8] {
        let response = try await exchange(.readRequest(ATTReadRequest(handle: handle)))
        guard case .readResponse(let read) = response else { throw Self.failure(response) }
        return read.value
    }

    /// Read Long Characteristic Values (4.8.3), or Read Long Characteristic Descriptors
    /// (4.12.2): ATT_READ_REQ (or ATT_READ_BLOB_REQ at `offset` when it is not 0), then
    /// ATT_READ_BLOB_REQ at each following offset until a part shorter than ATT_MTU - 1
    /// octets. When the value ends exactly at a part's end, the server answers the next
    /// Read Blob with an empty part, Attribute Not Long (0x0B) or Invalid Offset (0x07); each
    /// of these ends the read.
    ///
    /// - Parameter offset: the first octet to read, in octets.
    /// - Returns: the value from `offset` to its end.
    /// - Throws: ``GATTClientError/ProtocolViolation/valueTooLong(handle:limit:)`` when the
    ///   value grows past 512 octets (Part F, 3.2.9); otherwise as ``read(_:)``.
    public func readLong(_ handle: UInt16, offset: UInt16 = 0) async throws(GATTClientError) -> [UInt8] {
        let first: ATTPDU
        if offset == 0 {
            first = try await exchange(.readRequest(ATTReadRequest(handle: handle)))
        } else {
            first = try await exchange(.readBlobRequest(ATTReadBlobRequest(handle: handle, valueOffset: offset)))
        }
        let value: [UInt8]
        switch first {
        case .readResponse(let read): value = read.value
        case .readBlobResponse(let blob): value = blob.partAttributeValue
        default: throw Self.failure(first)
        }
        return try await readRemainingParts(of: handle, from: offset, after: value)
    }

    /// Continues a value read in parts: `value` holds the octets from `offset` read so far,
    /// the last part of which was `value`'s tail. Reads parts with ATT_READ_BLOB_REQ while the
    /// last part filled a response (ATT_MTU - 1 octets).
    func readRemainingParts(of handle: UInt16, from offset: UInt16, after value: [UInt8],
                            lastPartLength: Int? = nil) async throws(GATTClientError) -> [UInt8] {
        var value = value
        var lastPart = lastPartLength ?? value.count
        while lastPart >= engine.mtu - 1 {
            let next = Int(offset) + value.count
            guard next <= Self.maximumAttributeValueLength else {
                throw .protocolViolation(.valueTooLong(handle: handle, limit: Self.maximumAttributeValueLength))
            }
            let response = try await exchange(.readBlobRequest(ATTReadBlobRequest(handle: handle, valueOffset: UInt16(next))))
            switch response {
            case .readBlobResponse(let blob):
                value += blob.partAttributeValue
                lastPart = blob.partAttributeValue.count
                if lastPart == 0 { return value }
            case .errorResponse(let error) where error.errorCode == .attributeNotLong || error.errorCode == .invalidOffset:
                return value
            default:
                throw Self.failure(response)
            }
        }
        guard Int(offset) + value.count <= Self.maximumAttributeValueLength else {
            throw .protocolViolation(.valueTooLong(handle: handle, limit: Self.maximumAttributeValueLength))
        }
        return value
    }

    /// Read Using Characteristic UUID (4.8.2): one ATT_READ_BY_TYPE_REQ for `uuid` over
    /// `range` (typically a service's handles).
    ///
    /// - Returns: the handle-value pairs of the response, in handle order. Each value is cut to
    ///   min(ATT_MTU - 4, 253) octets; a response lists only the values of one length that fit
    ///   it, so to find more, ask again from the last handle + 1.
    /// - Throws: ``GATTClientError/errorResponse(request:handle:code:)`` (Attribute Not Found
    ///   when there is none), or a pair outside `range`.
    public func read(characteristicUUID uuid: BluetoothUUID,
                     in range: ClosedRange<UInt16> = 0x0001...0xFFFF) async throws(GATTClientError) -> [RemoteAttributeValue] {
        let request = ATTReadByTypeRequest(startingHandle: range.lowerBound, endingHandle: range.upperBound, attributeType: uuid)
        let response = try await exchange(.readByTypeRequest(request))
        guard case .readByTypeResponse(let list) = response else { throw Self.failure(response) }
        var values: [RemoteAttributeValue] = []
        values.reserveCapacity(list.attributeData.count)
        var start = Int(range.lowerBound)
        for entry in list.attributeData {
            try Self.check(entry.handle, from: start, to: range.upperBound, request: .readByTypeRequest)
            values.append(RemoteAttributeValue(handle: entry.handle, value: entry.value))
            start = Int(entry.handle) + 1
        }
        return values
    }

    /// Read Multiple Characteristic Values (4.8.4): ATT_READ_MULTIPLE_REQ for two or more
    /// handles whose values have known lengths.
    ///
    /// - Returns: the Set Of Values: the values in request order, concatenated, cut to
    ///   ATT_MTU - 1 octets. Splitting them needs their lengths, which only the caller knows.
    /// - Throws: ``GATTClientError/invalidArgument(_:)`` for fewer than two handles;
    ///   ``GATTClientError/pduTooLarge(size:mtu:)`` when the handles do not fit one request;
    ///   the server's error (its handle is the first that could not be read).
    public func readMultiple(_ handles: [UInt16]) async throws(GATTClientError) -> [UInt8] {
        let request: ATTReadMultipleRequest
        do {
            request = try ATTReadMultipleRequest(setOfHandles: handles)
        } catch {
            throw .invalidArgument("Read Multiple needs at least two handles")
        }
        let response = try await exchange(.readMultipleRequest(request))
        guard case .readMultipleResponse(let read) = response else { throw Self.failure(response) }
        return read.setOfValues
    }

    /// Read Multiple Variable Length Characteristic Values (4.8.5):
    /// ATT_READ_MULTIPLE_VARIABLE_REQ for two or more handles.
    ///
    /// The response carries each value with its length, but stops at ATT_MTU - 1 octets: the
    /// last value it carries may be cut, and values after it may be missing. The client reads
    /// the rest of a cut value with ATT_READ_BLOB_REQ, and each missing value with Read Long
    /// (4.8.3), so the result is always whole.
    ///
    /// - Returns: one value per handle, in request order.
    /// - Throws: ``GATTClientError/invalidArgument(_:)`` for fewer than two handles;
    ///   ``GATTClientError/ProtocolViolation/tooManyValues(requested:received:)`` when the server
    ///   sends more values than handles; the server's errors.
    public func readMultipleVariable(_ handles: [UInt16]) async throws(GATTClientError) -> [[UInt8]] {
        let request: ATTReadMultipleVariableRequest
        do {
            request = try ATTReadMultipleVariableRequest(setOfHandles: handles)
        } catch {
            throw .invalidArgument("Read Multiple Variable needs at least two handles")
        }
        let response = try await exchange(.readMultipleVariableRequest(request))
        guard case .readMultipleVariableResponse(let read) = response else { throw Self.failure(response) }
        guard read.tuples.count <= handles.count else {
            throw .protocolViolation(.tooManyValues(requested: handles.count, received: read.tuples.count))
        }
        var values: [[UInt8]] = []
        values.reserveCapacity(handles.count)
        for (index, tuple) in read.tuples.enumerated() {
            guard tuple.isTruncated else {
                values.append(tuple.attributeValue)
                continue
            }
            // Only the last tuple can be cut (the decoder gives earlier ones whole).
            let whole = try await readRemainingParts(of: handles[index], from: 0, after: tuple.attributeValue,
                                                     lastPartLength: Int.max)
            values.append(whole)
        }
        for handle in handles.dropFirst(read.tuples.count) {
            values.append(try await readLong(handle))
        }
        return values
    }
}
