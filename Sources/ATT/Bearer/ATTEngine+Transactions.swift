/// The sequential protocols (Core v5.4, Vol 3, Part F, 3.3.2), the transaction timer (3.3.3)
/// and the one path that ends the engine.
extension ATTEngine {
    /// Sends `octets` on `lane` when its turn comes and waits for the answer.
    ///
    /// The transaction is registered before the PDU is sent, so an answer that arrives while
    /// the send is still returning is kept; the timer starts once the PDU is sent.
    ///
    /// - Throws: ``ATTError/closed``, ``ATTError/pduTooLarge(size:mtu:)`` (the MTU may have
    ///   changed while waiting), or the transaction's failure.
    func transact(_ octets: [UInt8], opcode: ATTOpcode, on lane: ATTLane,
                  onAnswer: (@Sendable () -> Void)? = nil) async throws(ATTError) -> ATTPDU {
        try await takeTurn(lane)
        defer { passTurn(lane) }
        guard !isClosed else { throw .closed }
        guard octets.count <= mtu else { throw .pduTooLarge(size: octets.count, mtu: mtu) }

        lastTransactionID &+= 1
        let id = lastTransactionID
        update(lane) { $0 = ATTTransaction(id: id, opcode: opcode, onAnswer: onAnswer) }
        defer { update(lane) { if $0?.id == id { $0 = nil } } }

        do {
            try await bearer.send(octets)
        } catch {
            // Not sent, so never answered; what the peer sent before still comes in.
            finish(lane, id: id, with: .failure(.closed))
            await outputEnded()
        }
        startTimer(lane, id: id)
        return try await outcome(lane, id: id).get()
    }

    /// The outcome of transaction `id`, waiting for it if it has not come yet.
    private func outcome(_ lane: ATTLane, id: UInt64) async -> ATTOutcome {
        guard let current = transaction(lane, id: id) else { return .failure(.closed) }
        if let ready = current.outcome { return ready }
        continuationsMade += 1
        return await withCheckedContinuation { (waiter: CheckedContinuation<ATTOutcome, Never>) in
            // Runs on the actor before any other of its work: nothing can complete the
            // transaction between the check above and this registration.
            let early: ATTOutcome? = update(lane) { transaction in
                guard var current = transaction, current.id == id else { return .failure(.closed) }
                if let ready = current.outcome { return ready }
                current.waiter = waiter
                transaction = current
                return nil
            }
            if let early {
                continuationsResumed += 1
                waiter.resume(returning: early)
            }
        }
    }

    /// Ends the outstanding transaction of `lane` with `result`, if it is still pending (and,
    /// when `id` is given, is that transaction), resuming its waiter exactly once.
    ///
    /// - Returns: whether the transaction was pending and is now complete.
    @discardableResult
    func finish(_ lane: ATTLane, id: UInt64? = nil, with result: ATTOutcome) -> Bool {
        let (recorded, waiter, onAnswer) = update(lane) { transaction
            -> (Bool, CheckedContinuation<ATTOutcome, Never>?, (@Sendable () -> Void)?) in
            guard var current = transaction, id == nil || current.id == id else { return (false, nil, nil) }
            let done = current.complete(with: result)
            transaction = current
            return (done.recorded, done.waiter, current.onAnswer)
        }
        if recorded, case .success = result { onAnswer?() }
        if let waiter {
            continuationsResumed += 1
            waiter.resume(returning: result)
        }
        return recorded
    }

    /// The transaction outstanding on `lane`, if it is `id`.
    func transaction(_ lane: ATTLane, id: UInt64) -> ATTTransaction? {
        let current = lane == .request ? outstandingRequest : outstandingIndication
        return current?.id == id ? current : nil
    }

    /// Whether `lane` has a transaction sent and not yet answered.
    func isPending(_ lane: ATTLane) -> Bool {
        (lane == .request ? outstandingRequest : outstandingIndication)?.isPending ?? false
    }

    /// Runs `body` on the outstanding transaction of `lane`.
    func update<R>(_ lane: ATTLane, _ body: (inout ATTTransaction?) -> R) -> R {
        switch lane {
        case .request: return body(&outstandingRequest)
        case .indication: return body(&outstandingIndication)
        }
    }

    // MARK: Turns

    /// Waits until `lane` is free for this caller, first come first served.
    ///
    /// - Throws: ``ATTError/closed`` when the engine is closed, or closes while waiting.
    private func takeTurn(_ lane: ATTLane) async throws(ATTError) {
        guard !isClosed else { throw .closed }
        if turns(lane, { $0.takeIfFree() }) { return }
        continuationsMade += 1
        let granted = await withCheckedContinuation { (waiter: CheckedContinuation<Bool, Never>) in
            if isClosed {
                continuationsResumed += 1
                waiter.resume(returning: false)
            } else {
                turns(lane) { $0.enqueue(waiter) }
            }
        }
        guard granted else { throw .closed }
    }

    /// Ends this caller's turn on `lane`, handing it to the next waiter.
    private func passTurn(_ lane: ATTLane) {
        if let next = turns(lane, { $0.passOn() }) {
            continuationsResumed += 1
            next.resume(returning: true)
        }
    }

    private func turns<R>(_ lane: ATTLane, _ body: (inout ATTTurnQueue) -> R) -> R {
        switch lane {
        case .request: return body(&requestTurns)
        case .indication: return body(&indicationTurns)
        }
    }

    // MARK: Timer

    /// Arms the transaction timer of `id` (Part F, 3.3.3), unless it is already answered.
    ///
    /// One timer task per lane serves every transaction on it: the transaction records its
    /// deadline, and the lane's timer, when it wakes, fires if the pending transaction's deadline
    /// has passed, sleeps on until it when a later transaction is pending, and ends when none is.
    /// Back-to-back requests then arm no timer each (a task and a clock sleep per request cost
    /// more than the request), and an answer cancels nothing.
    private func startTimer(_ lane: ATTLane, id: UInt64) {
        guard !isShutDown, transaction(lane, id: id)?.isPending == true else { return }
        let deadline = timerClock.elapsed() + transactionTimeout
        update(lane) { $0?.deadline = deadline }
        guard laneTimers[lane] == nil else { return }
        if let executor = bearer.executor {
            laneTimers[lane] = Task(executorPreference: executor) { await self.runTimer(lane) }
        } else {
            laneTimers[lane] = Task { await self.runTimer(lane) }
        }
    }

    /// The lane's timer: see ``startTimer(_:id:)``.
    private func runTimer(_ lane: ATTLane) async {
        let clock = timerClock
        while !isShutDown, let current = update(lane, { $0 }), current.isPending, let deadline = current.deadline {
            if clock.elapsed() >= deadline {
                laneTimers[lane] = nil
                await timerFired(lane, id: current.id)
                return
            }
            do { try await clock.sleep(deadline) } catch { break }     // cancelled: the engine ended
        }
        laneTimers[lane] = nil
    }

    /// The transaction went unanswered: it fails with ``ATTError/timeout`` and the bearer ends
    /// (Part F, 3.3.3: no further ATT PDU on it).
    private func timerFired(_ lane: ATTLane, id: UInt64) async {
        guard !isShutDown, finish(lane, id: id, with: .failure(.timeout)) else { return }
        didTimeOut = true
        await shutDown()
    }

    // MARK: Ending

    /// Ends the engine, once: pending transactions fail with ``ATTError/closed``, callers
    /// waiting their turn are resumed to throw it, the streams finish, the bearer closes, and
    /// ``waitUntilClosed()`` returns. Every state change happens before the first suspension,
    /// so no call can slip in between.
    func shutDown() async {
        guard !isShutDown else { return }
        isShutDown = true
        for timer in laneTimers.values { timer.cancel() }
        laneTimers = [:]
        endClientRole()
        inbox.finish()
        for waiter in closedWaiters {
            continuationsResumed += 1
            waiter.resume()
        }
        closedWaiters = []
        await bearer.close()
    }

    /// The peer sends nothing more (the bearer's input finished): nothing outstanding can be
    /// answered, so the client role ends at once; the server role still answers, in order, the
    /// requests already received, while the bearer accepts them, and then the engine shuts down.
    func peerEnded() {
        endClientRole()
        inbox.finish()
    }

    /// The bearer refused a PDU: it has closed, at this end or with the link, so nothing more
    /// can be sent. New calls throw ``ATTError/closed`` and callers waiting their turn are
    /// resumed to throw it. The bearer is closed, which ends its input (``ATTBearer/close()``)
    /// after what it holds; a bearer whose input did not end would leave the engine open until
    /// the transaction timer or ``close()``. The PDUs it holds are still taken in (a response
    /// completes its request, a notification or indication reaches ``serverInitiated``, a
    /// command reaches the server handler), and then ``peerEnded()`` ends the rest. A refused
    /// send is the sender's failure, not the received data's.
    func outputEnded() async {
        guard !isShutDown, !hasOutputEnded else { return }
        hasOutputEnded = true
        isClosed = true
        resumeTurnWaiters()
        await bearer.close()
    }

    /// Fails what waits for the peer (the outstanding request and indication, and the callers
    /// waiting their turn) with ``ATTError/closed``, finishes the streams, and refuses new calls.
    private func endClientRole() {
        guard !hasEndedClientRole else { return }
        hasEndedClientRole = true
        isClosed = true
        finish(.request, with: .failure(.closed))
        finish(.indication, with: .failure(.closed))
        resumeTurnWaiters()
        serverInitiatedInput.finish()
        mtuInput.finish()
    }

    /// Resumes every caller waiting its turn, on either lane, to throw ``ATTError/closed``.
    private func resumeTurnWaiters() {
        for waiter in requestTurns.removeAllWaiters() + indicationTurns.removeAllWaiters() {
            continuationsResumed += 1
            waiter.resume(returning: false)
        }
    }

    // MARK: MTU

    /// Applies the result of an MTU exchange (Part F, 3.4.2.2): never above this end's Rx MTU,
    /// never below 23; publishes it on ``mtuUpdates``.
    func applyMTU(_ exchanged: UInt16) {
        let mtu = max(Self.defaultMTU, min(Int(exchanged), Int(localRxMTU)))
        mtuValue.store(mtu, ordering: .releasing)
        mtuInput.yield(mtu)
    }

    // MARK: Inspection for tests

    /// Continuations made by the engine and not yet resumed: outstanding callers and callers
    /// waiting their turn. Zero once the engine is closed and idle.
    var unresumedContinuations: Int { continuationsMade - continuationsResumed }

    /// Callers waiting for their turn on `lane` (not counting the one outstanding).
    func waitingCount(_ lane: ATTLane) -> Int {
        lane == .request ? requestTurns.waitingCount : indicationTurns.waitingCount
    }

    /// Whether `lane` has a transaction awaiting its answer, and how many callers wait behind it.
    func lane(_ lane: ATTLane) -> (pending: Bool, waiting: Int) {
        (isPending(lane), waitingCount(lane))
    }
}
