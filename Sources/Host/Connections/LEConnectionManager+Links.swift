import BLECore
import HCI
import L2CAP

extension LEConnectionManager {
    /// One link's state on the manager's actor.
    struct Link {
        let connection: LEConnection
        /// Takes the link's ACL data on the routing thread, once its reader has claimed the route.
        var receiver: LELinkReceiver?
        /// The Disconnection Complete's Reason, once it came.
        var dropped: HCIStatus?
        /// Whether the link's ACL route has finished (all data before the disconnection read).
        var aclEnded = false
        var nextSignalingIdentifier: UInt8 = 1
        var signalingWaiters: [UInt8: CheckedContinuation<Result<LESignalingCommand, LEConnectionError>, Never>] = [:]
        var updateWaiters: [UInt64: CheckedContinuation<Result<Void, LEConnectionError>, Never>] = [:]
        var phyWaiters: [UInt64: CheckedContinuation<Result<(tx: LEPHY, rx: LEPHY), LEConnectionError>, Never>] = [:]
        /// Whether an LE Connection Update of the link is outstanding: one at a time, so each
        /// LE Connection Update Complete answers the update sent (Vol 4, Part E, 7.8.18).
        var updating = false
        /// The updates waiting for their turn, first come first served.
        var updateTurns: [CheckedContinuation<Void, Never>] = []
        /// The peer's latest accepted Connection Parameter Update Request not yet applied
        /// (Vol 3, Part A, 4.20): a later one replaces it.
        var peerRequest: LEConnectionParametersRequest?
        /// Whether a task applies the peer's requests (``peerRequest``) now.
        var appliesPeerRequests = false
        /// The disconnect calls waiting for the link's Disconnection Complete: a failed one
        /// (non-zero Status) ends them, and leaves the link up (Vol 4, Part E, 7.7.5).
        var disconnectWaiters: [OneShot<DisconnectionOutcome>] = []
        /// How the HCI_Disconnect under way ends, if one is: a second disconnect call waits for
        /// it rather than send another.
        var disconnecting: OneShot<Result<HCIStatus, LEConnectionError>>?
        var reader: Task<Void, Never>?
    }

    /// How an accepted HCI_Disconnect ended.
    enum DisconnectionOutcome: Sendable {
        /// The link ended, with this Reason.
        case ended(HCIStatus)
        /// A Disconnection Complete with this non-zero Status: the link is still up.
        case failed(HCIStatus)
        /// No Disconnection Complete within the bound.
        case timedOut
    }

    /// A Disconnection Complete with a non-zero Status for `handle`: the disconnection failed
    /// and the link stays (Vol 4, Part E, 7.7.5); the disconnect calls waiting for it end.
    func disconnectionFailed(_ handle: UInt16, status: HCIStatus) {
        guard let waiters = links[handle]?.disconnectWaiters, !waiters.isEmpty else { return }
        links[handle]?.disconnectWaiters = []
        for waiter in waiters { waiter.resolve(.failed(status)) }
    }

    /// A successful connection event makes a link; a failed one ends the connect call waiting.
    /// A central link goes to the connect call waiting for its peer; any other link (a
    /// peripheral link, or a central link no call waits for) comes on ``incomingConnections``.
    /// A failed event's other parameters are not valid (Vol 4, Part E, 7.7.65.1), so a failure
    /// is matched by its Status alone (``centralAttemptFailed(_:)``).
    func connectionCompleted(status: HCIStatus, handle: UInt16, role: LERole, peerAddressType: LEAddressType,
                             peerAddress: BluetoothAddress, state: LEConnectionState) {
        guard status.isSuccess else {
            if role == .central || pendingConnect != nil { centralAttemptFailed(status) }
            return
        }
        if links[handle] != nil {
            // The controller reused a handle without a Disconnection Complete: the old link is gone.
            linkDropped(handle, reason: .unspecifiedError)
            tearDown(handle)
        }
        let connection = LEConnection(handle: handle, role: role, peerAddress: peerAddress, peerAddressType: peerAddressType,
                                      state: state, manager: self, attMTU: configuration.attMTU)
        // Claimed now, in the order of the connection events, not in the reader task, which
        // may run after the task of a newer link on the same handle.
        let route = flow.claimACL(handle: handle)
        sender.open(handle, link: route?.link, reason: connection.reason)
        links[handle] = Link(connection: connection)
        links[handle]?.reader = Task(executorPreference: executor) { [weak self] in await self?.readLink(route, handle, of: connection) }
        if role == .central, let pending = pendingConnect, pending.peers.contains(peerAddress) {
            pendingConnect = nil
            pending.finish(.success(connection))
        } else {
            incoming.yield(connection)
        }
    }

    /// The link on `handle` dropped: credits come back, queued sends and pending procedures end
    /// with `reason`, and ``LEConnection/disconnected()`` returns. Its received data is still
    /// delivered until its ACL route finishes.
    func linkDropped(_ handle: UInt16, reason: HCIStatus) {
        guard var link = links[handle], link.dropped == nil else { return }
        // The Reason known first stands: a Disconnection Complete the reading thread passed to
        // the sender before the manager ended keeps its own.
        link.connection.reason.resolve(reason)
        let reason = link.connection.reason.value ?? reason
        link.dropped = reason
        let error = LEConnectionError.disconnected(reason: reason)
        sender.drop(handle, reason: reason)
        for waiter in link.signalingWaiters.values { waiter.resume(returning: .failure(error)) }
        for waiter in link.updateWaiters.values { waiter.resume(returning: .failure(error)) }
        for waiter in link.phyWaiters.values { waiter.resume(returning: .failure(error)) }
        link.signalingWaiters = [:]
        link.updateWaiters = [:]
        link.phyWaiters = [:]
        // They find the link dropped when their turn comes.
        for turn in link.updateTurns { turn.resume() }
        link.updateTurns = []
        links[handle] = link
        link.connection.ended.resolve(reason)
        if link.aclEnded { tearDown(handle) }
    }

    /// `connection`'s ACL route finished: everything received before the disconnection was
    /// read. Nothing when its link has gone already (a newer link on the handle has a route of
    /// its own).
    func aclEnded(_ handle: UInt16, of connection: LEConnection) {
        guard links[handle]?.connection === connection else { return }
        links[handle]?.aclEnded = true
        if links[handle]?.dropped != nil { tearDown(handle) }
    }

    /// Removes a dropped link: its ATT bearer ends.
    func tearDown(_ handle: UInt16) {
        guard let link = links.removeValue(forKey: handle) else { return }
        sender.forget(handle)
        diagnosticsValue.droppedATTPDUs += link.connection.att.droppedPDUs
        diagnosticsValue.droppedLinkItems += link.receiver?.droppedItems ?? 0
        link.connection.att.end()
        link.reader?.cancel()
    }

    func connectionUpdated(_ c: LEMetaEvent.ConnectionUpdateComplete) {
        guard var link = links[c.connectionHandle] else { return }
        if c.status.isSuccess {
            link.connection.update {
                $0.connectionInterval = c.connectionInterval
                $0.peripheralLatency = c.peripheralLatency
                $0.supervisionTimeout = c.supervisionTimeout
            }
        }
        let result: Result<Void, LEConnectionError> = c.status.isSuccess ? .success(()) : .failure(.connectionFailed(c.status))
        for waiter in link.updateWaiters.values { waiter.resume(returning: result) }
        link.updateWaiters = [:]
        links[c.connectionHandle] = link
    }

    func phyUpdated(_ c: LEMetaEvent.PHYUpdateComplete) {
        guard var link = links[c.connectionHandle] else { return }
        if c.status.isSuccess {
            link.connection.update {
                $0.txPHY = c.txPHY
                $0.rxPHY = c.rxPHY
            }
        }
        let result: Result<(tx: LEPHY, rx: LEPHY), LEConnectionError> =
            c.status.isSuccess ? .success((c.txPHY, c.rxPHY)) : .failure(.connectionFailed(c.status))
        for waiter in link.phyWaiters.values { waiter.resume(returning: result) }
        link.phyWaiters = [:]
        links[c.connectionHandle] = link
    }

    /// Takes the link's ACL route (`route`, claimed with its connection event) until it ends:
    /// its packets go to an ``LELinkReceiver`` on the thread that routes them (ATT PDUs straight
    /// to the link's bearer), and this loop, on the manager's actor, handles the receiver's
    /// other frames and problems in order.
    /// The route ends with the link (its Disconnection Complete), the transport, or the reader's
    /// cancellation in ``tearDown(_:)``, and the loop with it; the manager lives as long.
    ///
    /// Everything it does is for `connection` alone: when the controller gives the handle to a
    /// new link while this loop still has items of the old one (both events can wait in the
    /// manager's queue together), those items are dropped, not answered on the new link.
    func readLink(_ route: HCIACLRoute?, _ handle: UInt16, of connection: LEConnection) async {
        guard let route, links[handle]?.connection === connection else { return }
        let receiver = LELinkReceiver(handle: handle, bearer: connection.att, maximumPayloadLength: Int(configuration.attMTU))
        links[handle]?.receiver = receiver
        route.consume(receiver.receive)
        while let item = await receiver.items.next() { receive(item, on: handle, of: connection) }
        withExtendedLifetime(route) {}
        aclEnded(handle, of: connection)
    }
}
