/// A PDU from the peer for the server role, queued in arrival order.
enum ATTInbound: Sendable {
    /// A request or command that decoded (or an undefined opcode, kept raw).
    case pdu(ATTPDU)
    /// A request that did not decode: it is answered with Invalid PDU (Core v5.4, Vol 3,
    /// Part F, 3.3).
    case invalidRequest(ATTOpcode)
}

/// Everything the peer sends: dispatch by PDU type (Part F, 3.3, Table 3.1), and the server
/// role's queue.
extension ATTEngine {
    /// Reads the bearer until its input finishes, then lets the server role finish what it
    /// received (see ``peerEnded()``). Never waits for the server handler, so responses and
    /// confirmations are taken in while a request is being served.
    func readBearer() async {
        if let inbox = bearer.inbox {
            while let octets = await inbox.next() {
                guard !isShutDown else { return }
                await receive(octets)
            }
        } else {
            for await octets in bearer.received {
                guard !isShutDown else { return }
                await receive(octets)
            }
        }
        peerEnded()
    }

    /// Dispatches one PDU from the peer by its type.
    ///
    /// | Type | Role | What happens |
    /// |---|---|---|
    /// | request, undefined without Command Flag | server | queued for the handler (Exchange MTU: answered by the engine); undecodable: Invalid PDU |
    /// | command | server | queued for the handler; undecodable: ignored |
    /// | response | client | completes the outstanding request; none outstanding: ignored |
    /// | confirmation | server | completes the outstanding indication; none outstanding: ignored |
    /// | notification | client | yielded to ``serverInitiated``; undecodable: ignored |
    /// | indication | client | confirmed, then yielded to ``serverInitiated`` (even when the confirmation cannot be sent); undecodable: confirmed only |
    ///
    /// An empty PDU has no opcode to answer and is ignored. A PDU longer than ``mtu`` breaks
    /// Part F, 3.2.8 (ATT_MTU bounds every PDU) and is not acted on: a request is answered with
    /// Invalid PDU, a response fails the outstanding request with
    /// ``ATTError/responseTooLarge(size:mtu:)``, an indication is confirmed only, anything
    /// else is dropped. (An undefined opcode is answered Request Not Supported whatever its size.)
    func receive(_ octets: [UInt8]) async {
        guard let first = octets.first else { return }
        let opcode = ATTOpcode(rawValue: first)
        let limit = max(mtu, agreedMTU ?? 0)
        guard octets.count <= limit || opcode.kind == .unknown else {
            await refuse(opcode, failingResponseWith: .responseTooLarge(size: octets.count, mtu: limit))
            return
        }
        let pdu: ATTPDU
        do {
            pdu = try ATTPDU.decode(octets)
        } catch {
            await refuse(opcode, failingResponseWith: .invalidPDU(error))
            return
        }
        switch pdu.kind {
        case .request, .command, .unknown:
            if inbox.yield(.pdu(pdu)) == .dropped { droppedInboundPDUs += 1 }
        case .response:
            receivedResponse(.success(pdu))
        case .confirmation:
            finish(.indication, with: .success(pdu))
        case .notification:
            serverInitiatedInput.yield(pdu)
        case .indication:
            // Confirmed before it is delivered: whatever the client does about the value (a
            // Service Changed rediscovery, say) then reaches the bearer after the confirmation,
            // never racing it. A bearer that can no longer send leaves it unconfirmed, and
            // the value, which did arrive, is delivered all the same.
            await confirmIndication()
            serverInitiatedInput.yield(pdu)
        }
    }

    /// Handles a PDU that is not acted on (it did not decode, or is longer than ATT_MTU) by its
    /// type: a request is answered with Invalid PDU, a response fails the outstanding request
    /// with `failure`, an indication is confirmed (so the peer's indication lane moves on), and
    /// anything else is dropped.
    private func refuse(_ opcode: ATTOpcode, failingResponseWith failure: ATTError) async {
        switch opcode.kind {
        case .request: if inbox.yield(.invalidRequest(opcode)) == .dropped { droppedInboundPDUs += 1 }
        case .response: receivedResponse(.failure(failure))
        case .indication: await confirmIndication()
        case .command, .notification, .confirmation, .unknown: break
        }
    }

    /// Completes the outstanding request with a response (checked to answer it) or with the
    /// failure to decode one. Without an outstanding request, the PDU is dropped.
    private func receivedResponse(_ received: ATTOutcome) {
        guard let current = outstandingRequest, current.isPending else { return }
        guard case .success(let response) = received else {
            finish(.request, id: current.id, with: received)
            return
        }
        let answers = response.answers(current.opcode)
        if answers, case .exchangeMTUResponse(let exchange) = response, let clientRxMTU = sentClientRxMTU {
            // The client applies the new ATT_MTU once it has the response (Part F, 3.4.2.2).
            applyMTU(exchange.effectiveMTU(clientRxMTU: clientRxMTU))
        }
        finish(.request, id: current.id, with: answers ? received : .failure(.unexpectedResponse(response)))
    }

    /// Sends ATT_HANDLE_VALUE_CFM (Part F, 3.4.7.3).
    private func confirmIndication() async {
        await sendAnswer(ATTPDU.handleValueConfirmation(ATTHandleValueConfirmation()).encoded)
    }

    // MARK: Server role

    /// Serves the peer's requests and commands one at a time, in arrival order, until the
    /// engine shuts down or the peer has ended and everything it sent is served; then shuts
    /// the engine down. Each request gets exactly one response while the bearer takes it.
    func serve() async {
        while let inbound = await inbox.next() {
            guard !isShutDown else { break }
            switch inbound {
            case .invalidRequest(let opcode):
                await sendAnswer(Self.errorResponse(to: opcode, .invalidPDU))
            case .pdu(let pdu):
                await serve(pdu)
            }
        }
        await shutDown()
    }

    private func serve(_ pdu: ATTPDU) async {
        // A request that can no longer be answered is not acted on: its client never learns
        // whether it was. A command, which is never answered, still is.
        guard pdu.kind == .command || !hasOutputEnded else { return }
        if pdu.kind == .command {
            // A command is never answered; one the handler does not know is ignored (3.3).
            if let handler = serverHandler { _ = await handler(pdu, self) }
            return
        }
        if case .exchangeMTURequest(let exchange) = pdu {
            await answerExchangeMTU(exchange)
            return
        }
        guard let handler = serverHandler else {
            await sendAnswer(Self.errorResponse(to: pdu.opcode, .requestNotSupported))
            return
        }
        let response = await handler(pdu, self)
        await sendAnswer(checkedResponse(response, to: pdu.opcode))
    }

    /// ATT_EXCHANGE_MTU_RSP with ``localRxMTU``; the new ATT_MTU applies once the response is
    /// sent (Part F, 3.4.2.2). A client that asks again is answered again, with the same
    /// Server Rx MTU, and the minimum is applied again as the client will.
    private func answerExchangeMTU(_ exchange: ATTExchangeMTURequest) async {
        let response = ATTExchangeMTUResponse(serverRxMTU: localRxMTU)
        let agreed = response.effectiveMTU(clientRxMTU: exchange.clientRxMTU)
        agreedMTU = Int(agreed)
        let sent = await sendAnswer(ATTPDU.exchangeMTUResponse(response).encoded)
        agreedMTU = nil
        // Sent: the client applies the new ATT_MTU on receipt, so this end does too, whatever
        // happened to other sends meanwhile.
        guard sent, !isShutDown else { return }
        applyMTU(agreed)
    }

    /// The octets to send for the handler's answer to `request`: the answer itself when it is a
    /// response to `request` that fits ``mtu``; Request Not Supported when there is none;
    /// Unlikely Error otherwise.
    private func checkedResponse(_ response: ATTPDU?, to request: ATTOpcode) -> [UInt8] {
        guard let response else { return Self.errorResponse(to: request, .requestNotSupported) }
        let octets = response.encoded
        guard response.answers(request), octets.count <= mtu else { return Self.errorResponse(to: request, .unlikelyError) }
        return octets
    }

    /// ATT_ERROR_RSP for `request` with `code` and Attribute Handle In Error 0x0000.
    static func errorResponse(to request: ATTOpcode, _ code: ATTErrorCode) -> [UInt8] {
        ATTErrorResponse(requestOpcodeInError: request, attributeHandleInError: 0x0000, errorCode: code).encoded
    }

    /// Sends a response or confirmation; a bearer that refuses it has closed, so nothing more
    /// is sent (``outputEnded()``), while what the peer sent before is still taken in.
    ///
    /// - Returns: whether the bearer took it.
    @discardableResult
    private func sendAnswer(_ octets: [UInt8]) async -> Bool {
        guard !isShutDown, !hasOutputEnded else { return false }
        do {
            try await bearer.send(octets)
            return true
        } catch {
            await outputEnded()
            return false
        }
    }
}
