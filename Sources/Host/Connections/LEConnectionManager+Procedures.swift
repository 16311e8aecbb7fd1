import BLECore
import HCI
import L2CAP

extension LEConnectionManager {
    /// Ends `connection` with HCI_Disconnect (``LEConnection/disconnect(reason:)``). A call made
    /// while another's HCI_Disconnect of the link is under way joins it and ends as it does
    /// (with its Reason), instead of sending a second one, which a controller refuses with
    /// Command Disallowed while it terminates the link.
    func disconnect(_ connection: LEConnection, reason: HCIStatus) async throws(LEConnectionError) -> HCIStatus {
        if let dropped = connection.disconnectionReason { return dropped }
        if let endCause { throw .ended(endCause) }
        let handle = connection.handle
        guard links[handle]?.connection === connection else { return try await sendDisconnect(connection, reason: reason).get() }
        if let running = links[handle]?.disconnecting { return try await running.wait().get() }
        let shared = OneShot<Result<HCIStatus, LEConnectionError>>()
        links[handle]?.disconnecting = shared
        let result = await sendDisconnect(connection, reason: reason)
        if links[handle]?.connection === connection, links[handle]?.disconnecting === shared { links[handle]?.disconnecting = nil }
        shared.resolve(result)
        return try result.get()
    }

    /// Sends HCI_Disconnect for `connection` and waits for its Disconnection Complete.
    private func sendDisconnect(_ connection: LEConnection, reason: HCIStatus) async -> Result<HCIStatus, LEConnectionError> {
        // Registered before the command goes: a failed Disconnection Complete right behind its
        // Command Status finds it.
        let outcome = OneShot<DisconnectionOutcome>()
        let handle = connection.handle
        if links[handle]?.connection === connection { links[handle]?.disconnectWaiters.append(outcome) }
        defer {
            if links[handle]?.connection === connection { links[handle]?.disconnectWaiters.removeAll { $0 === outcome } }
        }
        do {
            // Beyond the caller's cancellation: cleanup code that ends a link must end it.
            try await flow.sendIgnoringCancellation(HCIDisconnect(connectionHandle: connection.handle, reason: reason))
        } catch {
            // The link dropped while the command was on its way.
            if let dropped = connection.disconnectionReason { return .success(dropped) }
            return .failure(.command(error))
        }
        do {
            return .success(try await disconnectionComplete(of: connection, outcome: outcome))
        } catch {
            return .failure(error)
        }
    }

    /// Takes `connection` as ended here, with Unspecified Error (0x1F), when the controller
    /// will not end it (``LEConnection/abandon()``).
    func abandon(_ connection: LEConnection) {
        let handle = connection.handle
        guard links[handle]?.connection === connection, links[handle]?.dropped == nil else { return }
        linkDropped(handle, reason: .unspecifiedError)
        tearDown(handle)
    }

    /// The Reason of `connection`'s Disconnection Complete, after an accepted HCI_Disconnect.
    ///
    /// The controller ends the link once the peer acknowledges LL_TERMINATE_IND, or when the
    /// link's supervision timer expires first (Vol 6, Part B, 5.1.3), so the event is due
    /// within the supervision timeout; the wait is bounded by that plus the procedure timeout,
    /// for a controller that never sends it.
    ///
    /// - Throws: ``LEConnectionError/command(_:)`` with the Status of a Disconnection Complete
    ///   that says the disconnection failed (the link stays up, Vol 4, Part E, 7.7.5);
    ///   ``LEConnectionError/procedureTimeout(_:)`` when no Disconnection Complete came in
    ///   time. The link is then taken as ended, with Unspecified Error (0x1F), as for a
    ///   handle the controller reuses without a Disconnection Complete: its pending work ends,
    ///   ``LEConnection/disconnected()`` returns, and a late event for it is ignored.
    private func disconnectionComplete(of connection: LEConnection,
                                       outcome: OneShot<DisconnectionOutcome>) async throws(LEConnectionError) -> HCIStatus {
        let bound = configuration.procedureTimeout + connection.state.supervisionTimeout.duration
        let timer = TimeoutSleep.timer(after: bound, on: clock) { outcome.resolve(.timedOut) }
        defer { timer.cancel() }
        // Ends when the link does, or with the manager, which ends every link.
        Task { outcome.resolve(.ended(await connection.disconnected())) }
        let reason: HCIStatus?
        switch await outcome.wait() {
        case .ended(let ended): reason = ended
        case .failed(let status): throw .command(.status(status, opcode: HCIDisconnect.opcode))
        // The event may have come as the backstop fired: its Reason stands.
        case .timedOut: reason = connection.disconnectionReason
        }
        guard let reason else {
            // Its ACL credits come back as a Disconnection Complete would give them (Vol 4,
            // Part E, 4.1.1): the better guess, for a controller this far off, than holding them
            // for ever; one that kept the link and its packets may be sent more than it buffers.
            abandon(connection)
            throw .procedureTimeout("Disconnection Complete")
        }
        return reason
    }

    func updateParameters(_ connection: LEConnection, _ parameters: LEConnectionParametersRequest) async throws(LEConnectionError) {
        if let violation = parameters.violation { throw .invalidParameters(violation) }
        try usable(connection)
        switch connection.role {
        case .peripheral:
            let answer = try await signalingRequest(.connectionParameterUpdateRequest(parameters.l2capRequest), on: connection,
                                                    what: "L2CAP Connection Parameter Update Request")
            guard case .connectionParameterUpdateResponse(let response) = answer, response.result == .accepted else {
                throw .parametersRejected
            }
        default:
            await takeUpdateTurn(of: connection)
            defer { leaveUpdateTurn(of: connection) }
            try usable(connection)    // it may have dropped meanwhile
            try await procedure(on: connection, what: "LE Connection Update",
                                register: { link, id, waiter in link.updateWaiters[id] = waiter },
                                unregister: { link, id in link.updateWaiters.removeValue(forKey: id) },
                                command: HCILEConnectionUpdate(connectionHandle: connection.handle,
                                                               connectionParameters: parameters.hciParameters))
        }
    }

    /// Waits until no other LE Connection Update of `connection`'s link is outstanding, and
    /// takes the turn; at once when the link has gone (the caller then finds it unusable).
    private func takeUpdateTurn(of connection: LEConnection) async {
        let handle = connection.handle
        guard links[handle]?.connection === connection, links[handle]?.dropped == nil else { return }
        guard links[handle]!.updating else {
            links[handle]!.updating = true
            return
        }
        await withCheckedContinuation { links[handle]!.updateTurns.append($0) }
    }

    /// Gives the turn to the next update waiting, if any.
    private func leaveUpdateTurn(of connection: LEConnection) {
        let handle = connection.handle
        guard links[handle]?.connection === connection, links[handle]?.dropped == nil else { return }
        if links[handle]!.updateTurns.isEmpty {
            links[handle]!.updating = false
        } else {
            links[handle]!.updateTurns.removeFirst().resume()
        }
    }

    /// Applies the peer's accepted requests of `connection`'s link one at a time, the latest
    /// one waiting each time (``Link/peerRequest``), until none waits or the link has gone.
    func applyPeerRequests(on connection: LEConnection) async {
        let handle = connection.handle
        while links[handle]?.connection === connection, let parameters = links[handle]?.peerRequest {
            links[handle]?.peerRequest = nil
            await applyPeerRequest(parameters, on: connection)
        }
        if links[handle]?.connection === connection { links[handle]?.appliesPeerRequests = false }
    }

    /// Applies the parameters a peripheral asked for and this central accepted (Vol 3, Part A,
    /// 4.20) with LE Connection Update, in turn with the application's updates of the link; a
    /// failure is counted in ``Diagnostics/failedPeerParameterUpdates``, as nobody waits for it.
    func applyPeerRequest(_ parameters: LEConnectionParametersRequest, on connection: LEConnection) async {
        do {
            try await updateParameters(connection, parameters)
        } catch {
            if case .disconnected = error { return }
            if case .ended = error { return }
            diagnosticsValue.failedPeerParameterUpdates.append("handle 0x\(Hex.hex16(connection.handle)): \(error)")
            if diagnosticsValue.failedPeerParameterUpdates.count > 16 { diagnosticsValue.failedPeerParameterUpdates.removeFirst() }
        }
    }

    func readRSSI(_ connection: LEConnection) async throws(LEConnectionError) -> Int8 {
        try usable(connection)
        do {
            return try await flow.send(HCIReadRSSI(handle: connection.handle)).rssi
        } catch {
            if let dropped = connection.disconnectionReason { throw .disconnected(reason: dropped) }
            throw .command(error)
        }
    }

    func setDataLength(_ connection: LEConnection, txOctets: UInt16, txTime: UInt16?) async throws(LEConnectionError) {
        guard (27...251).contains(txOctets) else { throw .invalidParameters("TX octets \(txOctets) is outside 27...251") }
        // The time of txOctets on LE 1M: (octets + 14) × 8 µs (Vol 6, Part B, 4.5.10).
        let time = txTime ?? (txOctets + 14) * 8
        guard (328...17040).contains(time) else { throw .invalidParameters("TX time \(time) µs is outside 328...17040") }
        try usable(connection)
        do {
            try await flow.send(HCILESetDataLength(connectionHandle: connection.handle, txOctets: txOctets, txTime: .init(rawValue: time)))
        } catch {
            if let dropped = connection.disconnectionReason { throw .disconnected(reason: dropped) }
            throw .command(error)
        }
    }

    func setPHY(_ connection: LEConnection, _ phys: LEPHYs) async throws(LEConnectionError) -> (tx: LEPHY, rx: LEPHY) {
        try usable(connection)
        return try await procedure(on: connection, what: "LE Set PHY",
                                   register: { link, id, waiter in link.phyWaiters[id] = waiter },
                                   unregister: { link, id in link.phyWaiters.removeValue(forKey: id) },
                                   command: HCILESetPHY(connectionHandle: connection.handle, txPHYs: phys, rxPHYs: phys))
    }

    /// Sends `command` (answered by Command Status) and waits for the link's completion event,
    /// registered first so that it cannot be missed; bounded by the procedure timeout. Nothing
    /// is sent once `connection` has dropped (its handle may name a newer link by then).
    private func procedure<C: HCICommand, Value: Sendable>(
        on connection: LEConnection, what: String,
        register: @escaping @Sendable (inout Link, UInt64, CheckedContinuation<Result<Value, LEConnectionError>, Never>) -> Void,
        unregister: @escaping @Sendable (inout Link, UInt64) -> CheckedContinuation<Result<Value, LEConnectionError>, Never>?,
        command: C
    ) async throws(LEConnectionError) -> Value {
        let handle = connection.handle
        nextOperationID &+= 1
        let id = nextOperationID
        let timer = TimeoutSleep.timer(after: configuration.procedureTimeout, on: clock) { [weak self] in
            await self?.endProcedure(handle, id, unregister, with: .failure(.procedureTimeout(what)))
        }
        defer { timer.cancel() }
        let result = await withCheckedContinuation { (waiter: CheckedContinuation<Result<Value, LEConnectionError>, Never>) in
            guard links[handle] != nil, links[handle]?.dropped == nil else {
                waiter.resume(returning: .failure(.disconnected(reason: links[handle]?.dropped ?? .unknownConnectionIdentifier)))
                return
            }
            register(&links[handle]!, id, waiter)
            let flow = self.flow
            Task {
                // The link's drop has ended the wait already; a newer link on the handle is not this one.
                guard self.links[handle]?.connection === connection, self.links[handle]?.dropped == nil else { return }
                do throws(HCICommandError) {
                    try await flow.send(command)
                } catch {
                    self.endProcedure(handle, id, unregister, with: .failure(.command(error)))
                }
            }
        }
        return try result.get()
    }

    private func endProcedure<Value: Sendable>(_ handle: UInt16, _ id: UInt64,
                                               _ unregister: (inout Link, UInt64) -> CheckedContinuation<Result<Value, LEConnectionError>, Never>?,
                                               with result: Result<Value, LEConnectionError>) {
        guard links[handle] != nil, let waiter = unregister(&links[handle]!, id) else { return }
        waiter.resume(returning: result)
    }

    /// Sends a signaling request on CID 0x0005 and waits for the peer's answer (a response or a
    /// Command Reject with its Identifier), bounded by the procedure timeout.
    ///
    /// - Throws: ``LEConnectionError/signalingIdentifiersInUse`` when all 255 Identifiers wait
    ///   for answers; the link's errors (``usable(_:)``); `.procedureTimeout` with no answer.
    private func signalingRequest(_ command: LESignalingCommand, on connection: LEConnection, what: String) async throws(LEConnectionError) -> LESignalingCommand {
        try usable(connection)
        let handle = connection.handle
        guard let identifier = takeSignalingIdentifier(on: handle) else { throw .signalingIdentifiersInUse }
        let packet = LESignalingPacket(identifier: identifier, command: command)
        let timer = TimeoutSleep.timer(after: configuration.procedureTimeout, on: clock) { [weak self] in
            await self?.endSignaling(handle, identifier, of: connection, with: .failure(.procedureTimeout(what)))
        }
        defer { timer.cancel() }
        let result = await withCheckedContinuation { (waiter: CheckedContinuation<Result<LESignalingCommand, LEConnectionError>, Never>) in
            links[handle]!.signalingWaiters[identifier] = waiter
            Task {
                // The link's drop has ended the wait already; a newer link on the handle is not this one.
                guard self.links[handle]?.connection === connection, self.links[handle]?.dropped == nil else { return }
                do throws(LEConnectionError) {
                    try await self.send(channel: .leSignaling, payload: packet.encoded, on: handle)
                } catch {
                    self.endSignaling(handle, identifier, of: connection, with: .failure(error))
                }
            }
        }
        return try result.get()
    }

    /// The Identifier for the next request on `handle`'s signaling channel, or nil when all 255
    /// wait for answers. Identifiers go round 0x01...0xFF, a different one for each successive
    /// command, and 0x00 is never used (Core v5.4, Vol 3, Part A, 4); one whose request still
    /// waits is skipped, so no two requests waiting at once share one, and an answer always
    /// finds its own request. `handle` must name a link.
    private func takeSignalingIdentifier(on handle: UInt16) -> UInt8? {
        let waiting = links[handle]!.signalingWaiters
        guard waiting.count < 255 else { return nil }
        var identifier = links[handle]!.nextSignalingIdentifier
        while identifier == 0 || waiting[identifier] != nil { identifier &+= 1 }
        links[handle]!.nextSignalingIdentifier = identifier &+ 1
        return identifier
    }

    /// Ends `connection`'s signaling request `identifier`; nothing when the handle names a newer
    /// link, whose Identifiers count from 0x01 again.
    private func endSignaling(_ handle: UInt16, _ identifier: UInt8, of connection: LEConnection,
                              with result: Result<LESignalingCommand, LEConnectionError>) {
        guard links[handle]?.connection === connection else { return }
        links[handle]?.signalingWaiters.removeValue(forKey: identifier)?.resume(returning: result)
    }
}
