import HCI

/// Flow control from the controller to the host (Core v5.4, Vol 4, Part E, 4.2): the host
/// declares its ACL buffers (HCI_Host_Buffer_Size, 7.3.39), turns the control on
/// (HCI_Set_Controller_To_Host_Flow_Control, 7.3.38), and returns buffers as it takes packets
/// (HCI_Host_Number_Of_Completed_Packets, 7.3.40). While the host's buffers are all in use, the
/// controller delivers no more ACL data: its link layer NAKs the peer's data PDUs (Vol 6, Part B,
/// 4.5.9), modelled here as the peer not sending them until the host has room, so the data
/// waits in the peer's controller and, once those buffers are full, in the peer's host. Nothing
/// is lost on the way.
extension RadioWorld {
    /// The largest data PDU this controller hands its host whole, in octets: hosts that accept
    /// less are refused (it does not fragment toward the host).
    static let largestDeliveredPDU = 251

    func setControllerToHostFlowControl(_ command: HCISetControllerToHostFlowControl, _ c: ControllerModel) {
        guard command.flowControlEnable <= 0x03 else {
            return completeStatus(c, .setControllerToHostFlowControl, .invalidHCICommandParameters)
        }
        // 7.3.38: the setting changes only while no connection exists.
        guard c.connections.isEmpty else { return completeStatus(c, .setControllerToHostFlowControl, .commandDisallowed) }
        let aclOn = command.flowControlEnable & 0x01 != 0
        if aclOn, c.hostACLBufferCount == 0 {
            // No buffers declared: nothing could ever be delivered.
            return completeStatus(c, .setControllerToHostFlowControl, .commandDisallowed)
        }
        c.hostFlowControl = aclOn
        c.hostBuffersInUse = [:]
        completeStatus(c, .setControllerToHostFlowControl, .success)
    }

    func hostBufferSize(_ command: HCIHostBufferSize, _ c: ControllerModel) {
        guard command.hostTotalNumACLDataPackets > 0,
              Int(command.hostACLDataPacketLength) >= Self.largestDeliveredPDU else {
            return completeStatus(c, .hostBufferSize, .invalidHCICommandParameters)
        }
        guard c.connections.isEmpty else { return completeStatus(c, .hostBufferSize, .commandDisallowed) }
        c.hostACLBufferCount = Int(command.hostTotalNumACLDataPackets)
        completeStatus(c, .hostBufferSize, .success)
    }

    /// No event answers it, and it takes no command credit (7.3.40). Buffers of a handle with no
    /// connection are ignored (the link's end freed them); returning more than a handle holds
    /// is recorded as a violation.
    func hostNumberOfCompletedPackets(_ command: HCIHostNumberOfCompletedPackets, _ c: ControllerModel) {
        guard c.hostFlowControl else { return }
        for entry in command.entries {
            guard let held = c.hostBuffersInUse[entry.connectionHandle] else { continue }
            let returned = Int(entry.hostNumCompletedPackets)
            if returned > held {
                violation(.hostReturnedTooMany(handle: entry.connectionHandle, returned: returned, held: held), at: c)
            }
            c.hostBuffersInUse[entry.connectionHandle] = max(0, held - returned)
        }
        // Links whose data waited for room may go on.
        for end in c.connections.values {
            if let link = links[end.link] { ensureConnectionEvent(link) }
        }
    }

    /// Whether side `side` of `link` can send its head packet now: it has one, and it was
    /// already received (a retransmission for the acknowledgement) or the receiving host has room.
    func canSend(_ link: Link, side: Int) -> Bool {
        guard !link.queues[side].isEmpty else { return false }
        return link.inFlight[side] != nil || controllers[link.controllers[1 - side]].hostHasRoom
    }

    /// Whether a connection event on `link` has anything it can carry now.
    func hasSendableTraffic(_ link: Link) -> Bool {
        canSend(link, side: 0) || canSend(link, side: 1) || !link.procedures.isEmpty
    }

    /// Counts an ACL packet handed to the host of `c` on `handle`, under flow control.
    func hostTookACL(_ c: ControllerModel, handle: UInt16) {
        guard c.hostFlowControl else { return }
        c.hostBuffersInUse[handle, default: 0] += 1
    }
}
