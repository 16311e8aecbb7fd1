import HCI
import L2CAP
import SMP

extension LEConnectionManager {
    // MARK: Sending

    /// Sends `payload` on L2CAP channel `channel` of the link on `handle` (see
    /// ``LEACLSender/send(channel:payload:on:)``), from the caller's task.
    nonisolated(nonsending) func send(channel: L2CAPChannelID, payload: [UInt8], on handle: UInt16) async throws(LEConnectionError) {
        try await sender.send(channel: channel, payload: payload, on: handle)
    }

    /// Queues `payload` on `channel` without waiting; false when the link's queue is full or
    /// the link is gone (signaling and SMP answers, which must not block the reader).
    func trySend(channel: L2CAPChannelID, payload: [UInt8], on handle: UInt16) -> Bool {
        sender.trySend(channel: channel, payload: payload, on: handle)
    }

    /// Throws unless `connection`'s link is up and the manager runs. A connection whose link
    /// has gone stays gone when the controller gives its handle to a newer link: a call on it
    /// never acts on that other link.
    func usable(_ connection: LEConnection) throws(LEConnectionError) {
        if let endCause { throw .ended(endCause) }
        // Dropped as seen by the reading thread, before the manager's turn.
        if let reason = connection.reason.value { throw .disconnected(reason: reason) }
        guard let link = links[connection.handle], link.connection === connection else {
            throw .disconnected(reason: connection.disconnectionReason ?? .unknownConnectionIdentifier)
        }
        if let reason = link.dropped { throw .disconnected(reason: reason) }
    }

    // MARK: Receiving

    /// One item of `connection`'s receiver (``LELinkReceiver``): a frame on a channel other than
    /// ATT, or a problem for the diagnostics. Nothing when `connection`'s link has gone from the
    /// manager: a link that took its handle since never answers for it.
    func receive(_ item: LELinkReceiver.Item, on handle: UInt16, of connection: LEConnection) {
        guard let link = links[handle], link.connection === connection else { return }
        switch item {
        case .problem(let problem): note(problem)
        case .frame(let frame): dispatch(frame, on: handle, link: link)
        case .oversized(let start):
            guard start.channelID == .leSignaling else { return }
            answer(LESignalingResponder.handle(oversized: start.leadingPayload), on: handle)
        }
    }

    private func note(_ problem: String) {
        diagnosticsValue.reassemblyProblems += 1
        diagnosticsValue.recentReassemblyProblems.append(problem)
        if diagnosticsValue.recentReassemblyProblems.count > 16 { diagnosticsValue.recentReassemblyProblems.removeFirst() }
    }

    private func dispatch(_ frame: L2CAPBasicFrame, on handle: UInt16, link: Link) {
        switch frame.channelID {
        case .att:
            link.connection.att.deliver(frame.payload)
        case .leSignaling:
            signaling(frame.payload, on: handle, role: link.connection.role)
        case .smp:
            securityManager(frame.payload, on: handle)
        default:
            diagnosticsValue.droppedFrames[frame.channelID.rawValue, default: 0] += 1
        }
    }

    private func signaling(_ payload: [UInt8], on handle: UInt16, role: LERole) {
        answer(LESignalingResponder.handle(payload, role: role, limits: configuration.parameterLimits), on: handle)
    }

    /// Carries out the responder's `action` for a signaling packet received on `handle`.
    private func answer(_ action: LESignalingResponder.Action, on handle: UInt16) {
        switch action {
        case .respond(let packet):
            if trySend(channel: .leSignaling, payload: packet.encoded, on: handle) {
                diagnosticsValue.signalingAnswers += 1
            } else {
                diagnosticsValue.unsentSignalingAnswers += 1
            }
        case .updateConnection(let parameters, let response):
            guard trySend(channel: .leSignaling, payload: response.encoded, on: handle) else {
                diagnosticsValue.unsentSignalingAnswers += 1
                return
            }
            diagnosticsValue.signalingAnswers += 1
            // The peripheral asked; the central applies it, for this link only (not a later one
            // on the handle), in turn with the application's updates. LE Connection Update
            // Complete updates the link's state.
            // A request that comes while earlier ones wait replaces the one not yet applied: a
            // peer that floods requests costs one update at a time and one waiting request.
            guard let connection = links[handle]?.connection else { return }
            links[handle]?.peerRequest = parameters
            guard links[handle]?.appliesPeerRequests == false else { return }
            links[handle]?.appliesPeerRequests = true
            Task { await self.applyPeerRequests(on: connection) }
        case .answer(let identifier, let command):
            links[handle]?.signalingWaiters.removeValue(forKey: identifier)?.resume(returning: .success(command))
        case .ignore:
            return
        }
    }

    /// SMP on CID 0x0006: host mode cannot pair yet, so Pairing Request and Security Request get
    /// Pairing Failed with Pairing Not Supported (Vol 3, Part H, 3.5.5); other SMP PDUs are
    /// ignored.
    private func securityManager(_ payload: [UInt8], on handle: UInt16) {
        guard let code = payload.first, code == SMPCode.pairingRequest.rawValue || code == SMPCode.securityRequest.rawValue else {
            diagnosticsValue.ignoredSMPPDUs += 1
            return
        }
        diagnosticsValue.pairingRefusals += 1
        if !trySend(channel: .smp, payload: SMPPDU.pairingFailed(reason: .pairingNotSupported).encoded, on: handle) {
            diagnosticsValue.unsentSignalingAnswers += 1
        }
    }
}
