import ATT

/// Reading and writing one attribute's value, whoever holds it: the connection (CCCDs, Client
/// Supported Features), the server (fixed values and what clients wrote to them), or the
/// application (dynamic values' handlers).
extension GATTServer {
    /// The largest attribute value, in octets (Core v5.4, Vol 3, Part F, 3.2.9).
    static let maximumValueLength = GATTDatabaseLayout.maximumValueLength

    /// The permission check of `attribute` for `access` on the request's link.
    func permissionError(_ attribute: GATTAttribute, _ access: GATTPermissionCheck.Access,
                         _ context: inout GATTRequestContext) async -> ATTErrorCode? {
        await GATTPermissionCheck.error(attribute.permissions, access, link: &context.link)
    }

    /// Reads `attribute` from `offset`: at most `limit` octets, and the whole value's length.
    ///
    /// Permissions are the caller's to check first. A fixed value read past its end fails with
    /// Invalid Offset (0x07); a value read exactly at its end is empty (Part F, 3.4.4.5). Reading
    /// the Database Hash counts towards change-awareness (Part G, 2.5.2.1).
    func readValue(_ attribute: GATTAttribute, offset: Int, limit: Int,
                   _ context: GATTRequestContext) async -> Result<(octets: [UInt8], length: Int), ATTErrorCode> {
        switch context.served.roles[attribute.handle] {
        case .clientCharacteristicConfiguration:
            let value = states[context.id]?.configuration(attribute.handle).encoded ?? [0x00, 0x00]
            return Self.slice(value, offset: offset, limit: limit)
        case .clientSupportedFeatures:
            return Self.slice(states[context.id]?.clientSupportedFeatures ?? [], offset: offset, limit: limit)
        case .databaseHash:
            // Only the hash of the database served now counts (a replacement may have come while
            // an earlier part of the request was awaited): the client would read the old one.
            if context.served.database.databaseHash == served.database.databaseHash,
               var state = states[context.id], !state.isChangeAware {
                state.hashReadWhileUnaware = true
                states[context.id] = state
            }
        case nil:
            break
        }
        switch attribute.value {
        case .fixed(let octets):
            return Self.slice(values[attribute.handle] ?? octets, offset: offset, limit: limit)
        case .dynamic(let handlers):
            guard let read = handlers.read else { return .failure(.readNotPermitted) }
            do throws(ATTErrorCode) {
                let value = try await read(offset, context.peer)
                return .success((Array(value.prefix(max(0, limit))), offset &+ value.count))
            } catch {
                return .failure(error)
            }
        }
    }

    /// `value` from `offset`, at most `limit` octets, and the value's length.
    static func slice(_ value: [UInt8], offset: Int, limit: Int) -> Result<(octets: [UInt8], length: Int), ATTErrorCode> {
        guard offset >= 0, offset <= value.count else { return .failure(.invalidOffset) }
        let end = offset + min(max(0, limit), value.count - offset)
        return .success((Array(value[offset..<end]), value.count))
    }

    // MARK: Writing

    /// The fixed length of a value a client writes, when it has one: 2 octets for the CCCD and
    /// SCCD (Part G, 3.3.3.3, 3.3.3.4). Other values have a variable length of at most 512
    /// octets.
    static func fixedWriteLength(_ attribute: GATTAttribute) -> Int? {
        attribute.type == GATTAttributeType.clientCharacteristicConfiguration
            || attribute.type == GATTAttributeType.serverCharacteristicConfiguration ? 2 : nil
    }

    /// The value a client sees at `attribute` now, for the attributes whose writes the server
    /// applies itself; nil for a dynamic value.
    func currentValue(_ attribute: GATTAttribute, _ context: GATTRequestContext) -> [UInt8]? {
        switch context.served.roles[attribute.handle] {
        case .clientCharacteristicConfiguration:
            return states[context.id]?.configuration(attribute.handle).encoded ?? [0x00, 0x00]
        case .clientSupportedFeatures:
            return states[context.id]?.clientSupportedFeatures ?? []
        case .databaseHash, nil:
            return storedValue(attribute)
        }
    }

    /// `part` written at `offset` into `current` (Part F, 3.4.5.1, 3.4.6.3): a fixed-length
    /// value keeps the octets not written; a variable-length value ends with the part.
    ///
    /// - Returns: Invalid Offset (0x07) for an offset past the value's end; Invalid Attribute
    ///   Value Length (0x0D) for a value longer than its fixed length or than 512 octets.
    static func apply(_ part: [UInt8], at offset: Int, to current: [UInt8],
                      fixedLength: Int?) -> Result<[UInt8], ATTErrorCode> {
        guard offset <= current.count else { return .failure(.invalidOffset) }
        if let fixedLength {
            guard part.count <= fixedLength &- offset else { return .failure(.invalidAttributeValueLength) }
            var value = current
            for (i, octet) in part.enumerated() {
                if offset + i < value.count { value[offset + i] = octet } else { value.append(octet) }
            }
            return .success(value)
        }
        guard part.count <= maximumValueLength &- offset else { return .failure(.invalidAttributeValueLength) }
        return .success(Array(current[..<offset]) + part)
    }

    /// Checks the value a client wants to give an attribute the server applies itself:
    /// - a CCCD may set Notification only if the characteristic can notify and Indication only
    ///   if it can indicate (Part G, 3.3.3.3, Table 3.11); other bits are reserved and kept;
    /// - Client Supported Features may not clear a bit the client set (Part G, 7.2).
    ///
    /// - Returns: Value Not Allowed (0x13) when the value breaks its rule.
    func validate(_ value: [UInt8], for attribute: GATTAttribute, _ context: GATTRequestContext) -> ATTErrorCode? {
        switch context.served.roles[attribute.handle] {
        case .clientCharacteristicConfiguration(_, let properties):
            let bits = GATTClientCharacteristicConfiguration(rawValue: Self.littleEndian16(value))
            if bits.contains(.notification), !properties.contains(.notify) { return .valueNotAllowed }
            if bits.contains(.indication), !properties.contains(.indicate) { return .valueNotAllowed }
            return nil
        case .clientSupportedFeatures:
            let old = states[context.id]?.clientSupportedFeatures ?? []
            for (i, bits) in old.enumerated() where (i < value.count ? value[i] : 0) & bits != bits {
                return .valueNotAllowed
            }
            return nil
        case .databaseHash, nil:
            return nil
        }
    }

    /// Stores `value`, already applied and validated, for an attribute the server holds, and
    /// announces it.
    func commit(_ value: [UInt8], to attribute: GATTAttribute, _ context: GATTRequestContext) {
        switch context.served.roles[attribute.handle] {
        case .clientCharacteristicConfiguration(let valueHandle, _):
            // The handle is the old database's when a replacement came while a handler was
            // awaited: not stored then, as for the values below.
            guard context.served.database.databaseHash == served.database.databaseHash else { return }
            let bits = Self.littleEndian16(value)
            guard var state = states[context.id] else { return }
            let old = state.configuration(attribute.handle).rawValue
            state.setConfiguration(bits, at: attribute.handle)
            states[context.id] = state
            if old != bits {
                eventInput.yield(.configurationChanged(context.peer, valueHandle: valueHandle,
                                                       configuration: GATTClientCharacteristicConfiguration(rawValue: bits)))
            }
        case .clientSupportedFeatures:
            guard states[context.id] != nil else { return }
            let features = Self.definedClientFeatures(value)
            states[context.id]?.clientSupportedFeatures = features
            eventInput.yield(.clientFeaturesChanged(context.peer, features: features))
        case .databaseHash, nil:
            // Only a database of this generation may be changed (a replacement may have come
            // while a handler was awaited).
            guard context.served.database.databaseHash == served.database.databaseHash else { return }
            values[attribute.handle] = value
            eventInput.yield(.valueWritten(context.peer, handle: attribute.handle, value: value))
        }
    }

    /// Writes a whole value (offset 0) to `attribute`, permissions already checked: Write
    /// Request, Write Command and Signed Write Command (Part F, 3.4.5). `withoutResponse` says
    /// it is one of the two commands: a dynamic value then goes to its
    /// ``GATTValueHandlers/writeWithoutResponse`` handler when it has one.
    ///
    /// - Returns: the error to answer with; nil when written.
    func writeValue(_ value: [UInt8], to attribute: GATTAttribute, _ context: GATTRequestContext,
                    withoutResponse: Bool = false) async -> ATTErrorCode? {
        if case .dynamic(let handlers) = attribute.value {
            guard value.count <= Self.maximumValueLength else { return .invalidAttributeValueLength }
            let handler = withoutResponse ? handlers.writeWithoutResponse ?? handlers.write : handlers.write
            guard let write = handler else { return .writeNotPermitted }
            do throws(ATTErrorCode) {
                try await write(value, 0, context.peer)
                return nil
            } catch {
                return error
            }
        }
        guard let current = currentValue(attribute, context) else { return .unlikelyError }
        // A Write Request replaces a variable-length value entirely (3.4.5.1).
        let fixedLength = Self.fixedWriteLength(attribute)
        let result = Self.apply(value, at: 0, to: fixedLength == nil ? [] : current, fixedLength: fixedLength)
        switch result {
        case .failure(let code):
            return code
        case .success(let newValue):
            if let code = validate(newValue, for: attribute, context) { return code }
            commit(newValue, to: attribute, context)
            return nil
        }
    }

    /// The Client Supported Features bits Core v5.4 defines (Part G, 7.2, Table 7.6): Robust
    /// Caching (bit 0), Enhanced ATT bearer (bit 1), Multiple Handle Value Notifications (bit 2).
    static let definedClientFeatureBits: UInt8 = 0x07

    /// `value` with the Client Supported Features bits reserved for future use cleared, its
    /// length kept: the server ignores reserved bits (Part G, 7.2, Table 7.6 defines bits 0-2 and
    /// reserves the rest), so a client reading the value back sees only the features it set.
    static func definedClientFeatures(_ value: [UInt8]) -> [UInt8] {
        value.indices.map { $0 == 0 ? value[$0] & definedClientFeatureBits : 0 }
    }

    /// A 16-bit little-endian value from up to two octets (missing octets are zero).
    static func littleEndian16(_ value: [UInt8]) -> UInt16 {
        UInt16(value.first ?? 0) | UInt16(value.count > 1 ? value[1] : 0) << 8
    }
}
