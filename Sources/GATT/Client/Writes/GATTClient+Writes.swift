import ATT
import BLECore

/// Characteristic value and descriptor writes (Core v5.4, Vol 3, Part G, 4.9 and 4.12.3-4).
/// A descriptor is written the same way as a value: by its handle.
extension GATTClient {
    /// Write Without Response (4.9.1): ATT_WRITE_CMD. The server never answers, so nothing
    /// says whether the value was written. Runs on the caller's executor, straight to the engine.
    ///
    /// - Throws: ``GATTClientError/pduTooLarge(size:mtu:)`` when `value` is longer than
    ///   ATT_MTU - 3 octets (nothing is sent); ``GATTClientError/closed``.
    public nonisolated(nonsending) func writeWithoutResponse(_ value: [UInt8], to handle: UInt16) async throws(GATTClientError) {
        try await sendCommand(.writeCommand(ATTWriteCommand(handle: handle, value: value)))
    }

    /// Signed Write Without Response (4.9.2): ATT_SIGNED_WRITE_CMD signed with the CSRK and
    /// the next ``signCounter`` (Vol 3, Part H, 2.4.5), which then goes up by one.
    ///
    /// On an encrypted link the signature adds nothing, and the specification has the client
    /// use Write Without Response (4.9.1) instead: so does this method, and the SignCounter is
    /// left alone.
    ///
    /// - Throws: ``GATTClientError/noSigningKey``; ``GATTClientError/signCounterExhausted``
    ///   when the counter has reached 0xFFFFFFFF (it never wraps, so a peer never sees a
    ///   counter again); ``GATTClientError/pduTooLarge(size:mtu:)`` when `value` is longer than ATT_MTU - 15
    ///   octets; ``GATTClientError/signingFailed``; ``GATTClientError/closed``.
    public func signedWriteWithoutResponse(_ value: [UInt8], to handle: UInt16) async throws(GATTClientError) {
        if await engine.security.isEncrypted {
            try await writeWithoutResponse(value, to: handle)
            return
        }
        guard let key = signingKey else { throw .noSigningKey }
        guard signCounter < .max else { throw .signCounterExhausted }
        let command = try key.signedWrite(handle: handle, value: value, signCounter: signCounter)
        let mtu = engine.mtu
        let size = command.encoded.count
        guard size <= mtu else { throw .pduTooLarge(size: size, mtu: mtu) }
        // The counter is spent once the command is signed for sending, so no MAC is ever
        // computed twice for one counter value.
        signCounter += 1
        try await sendCommand(.signedWriteCommand(command))
    }

    /// Write Characteristic Value (4.9.3), or Write Characteristic Descriptor (4.12.3):
    /// ATT_WRITE_REQ, answered by ATT_WRITE_RSP. Runs on the caller's executor, straight to the
    /// engine.
    ///
    /// - Throws: ``GATTClientError/pduTooLarge(size:mtu:)`` when `value` is longer than
    ///   ATT_MTU - 3 octets (``writeLong(_:to:offset:)`` writes longer values);
    ///   the server's ATT_ERROR_RSP (Write Not Permitted, Invalid Attribute Value Length, ...).
    public nonisolated(nonsending) func write(_ value: [UInt8], to handle: UInt16) async throws(GATTClientError) {
        let response = try await exchange(.writeRequest(ATTWriteRequest(handle: handle, value: value)))
        guard case .writeResponse = response else { throw Self.failure(response) }
    }

    /// Write Long Characteristic Values (4.9.4), or Write Long Characteristic Descriptors
    /// (4.12.4): `value` in ATT_PREPARE_WRITE_REQs of ATT_MTU - 5 octets at increasing
    /// offsets from `offset`, then ATT_EXECUTE_WRITE_REQ with Flags 0x01.
    ///
    /// Each Prepare Write Response is checked to echo its request (Part F, 3.4.6.2). On a
    /// mismatch or an error the client cancels the queue (Execute Write, Flags 0x00), so the
    /// server writes nothing. Queued writes of one client never interleave.
    ///
    /// - Parameter offset: the offset in the attribute value of `value`'s first octet.
    /// - Throws: ``GATTClientError/prepareWriteMismatch(sent:received:)``; the server's
    ///   ATT_ERROR_RSP to a prepare (Prepare Queue Full, Invalid Offset, ...) or to the execute
    ///   (Invalid Attribute Value Length, ...); ``GATTClientError/invalidArgument(_:)`` when
    ///   `offset` + `value.count` passes 65535.
    public func writeLong(_ value: [UInt8], to handle: UInt16, offset: UInt16 = 0) async throws(GATTClientError) {
        try await queuedWrite([GATTReliableWrite(handle: handle, value: value, offset: offset)])
    }

    /// Reliable Writes (4.9.5): every write's value in ATT_PREPARE_WRITE_REQs, each response
    /// checked to echo its request exactly, then ATT_EXECUTE_WRITE_REQ with Flags 0x01, so the
    /// server writes all the values or none.
    ///
    /// On the first response that differs from its request the client sends Execute Write with
    /// Flags 0x00 (cancel all prepared writes) and throws: nothing is written.
    ///
    /// - Throws: ``GATTClientError/prepareWriteMismatch(sent:received:)`` after cancelling; the
    ///   server's ATT_ERROR_RSP (after cancelling, when it answered a prepare);
    ///   ``GATTClientError/invalidArgument(_:)`` for no writes or an offset past 65535.
    public func reliableWrite(_ writes: [GATTReliableWrite]) async throws(GATTClientError) {
        guard !writes.isEmpty else { throw .invalidArgument("a reliable write needs at least one value") }
        try await queuedWrite(writes)
    }

    /// Prepares every write in parts, then executes; cancels on a mismatch or an error.
    ///
    /// A Database Out Of Sync answer (0x12) to a prepare or to the execute (Part G, 2.5.2.1)
    /// means the server processed nothing of that request, and what it queued before may be
    /// stale (this server, for one, discards it). The request alone is never repeated, since an
    /// execute repeated after the server emptied its queue would report success for values
    /// never written. Instead the client recovers (reads the Database Hash, rediscovers when it
    /// changed: ``GATTClientError/databaseChanged(handle:)`` when a handle now designates
    /// another attribute), cancels whatever is still queued, and runs the whole procedure once
    /// more; a second 0x12 is the caller's error.
    func queuedWrite(_ writes: [GATTReliableWrite]) async throws(GATTClientError) {
        for write in writes where Int(write.offset) + write.value.count > Int(UInt16.max) {
            throw .invalidArgument("offset \(write.offset) + \(write.value.count) octets passes 65535")
        }
        await acquire(.queuedWrites)
        defer { release(.queuedWrites) }

        guard try await prepareAndExecute(writes, recoverable: true) == .outOfSync else { return }
        do {
            try await recoverFromOutOfSync(handles: writes.map(\.handle))
        } catch {
            // Change-aware again (the hash was read): the stale queue is cleared before failing.
            if case .databaseChanged = error { try await cancelPreparedWrites() }
            throw error
        }
        try await cancelPreparedWrites()
        _ = try await prepareAndExecute(writes, recoverable: false)
    }

    /// What one run of the queued-write procedure came to, when it did not throw.
    enum QueuedWriteOutcome {
        /// The server executed every prepared value.
        case written
        /// The server answered a prepare or the execute with Database Out Of Sync; nothing was
        /// cancelled yet (a change-unaware client's requests are not processed).
        case outOfSync
    }

    /// One run of the procedure: every write's parts, then the execute. With `recoverable`, a
    /// Database Out Of Sync answer returns ``QueuedWriteOutcome/outOfSync``; without it, it is
    /// thrown as any other error.
    private func prepareAndExecute(_ writes: [GATTReliableWrite], recoverable: Bool) async throws(GATTClientError) -> QueuedWriteOutcome {
        func isOutOfSync(_ response: ATTPDU) -> Bool {
            guard recoverable, case .errorResponse(let error) = response else { return false }
            return error.errorCode == .databaseOutOfSync
        }
        let partLength = max(1, engine.mtu - 5)
        for write in writes {
            var position = 0
            repeat {
                let part = Array(write.value[position..<min(position + partLength, write.value.count)])
                let request = ATTPrepareWriteRequest(handle: write.handle, valueOffset: write.offset + UInt16(position),
                                                     partAttributeValue: part)
                let response = try await exchange(.prepareWriteRequest(request), recovering: false)
                if isOutOfSync(response) { return .outOfSync }
                switch response {
                case .prepareWriteResponse(let echo) where echo.echoes(request):
                    break
                case .prepareWriteResponse(let echo):
                    try await cancelPreparedWrites()
                    throw .prepareWriteMismatch(sent: request, received: echo)
                default:
                    // The server may have queued earlier parts: clear them before failing.
                    try await cancelPreparedWrites()
                    throw Self.failure(response)
                }
                position += part.count
            } while position < write.value.count
        }
        let execute = ATTExecuteWriteRequest(flags: .immediatelyWriteAllPendingPreparedValues)
        let response = try await exchange(.executeWriteRequest(execute), recovering: false)
        if isOutOfSync(response) { return .outOfSync }
        guard case .executeWriteResponse = response else { throw Self.failure(response) }
        return .written
    }

    /// ATT_EXECUTE_WRITE_REQ with Flags 0x00: the server discards the queue. Its answer is not
    /// checked (an error here changes nothing for the caller); only a closed bearer or a
    /// timeout is thrown.
    func cancelPreparedWrites() async throws(GATTClientError) {
        _ = try await send(.executeWriteRequest(ATTExecuteWriteRequest(flags: .cancelAllPreparedWrites)))
    }
}
