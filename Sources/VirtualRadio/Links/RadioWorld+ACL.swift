import HCI

/// ACL data from a host (Core v5.4, Vol 4, Part E, 4.1 and 5.4.2): the controller's buffer
/// length and count are enforced; a packet that breaks them, or names no connection, is
/// recorded as a violation and dropped, never obeyed.
extension RadioWorld {
    func hostACL(_ packet: HCIACLDataPacket, from c: ControllerModel) {
        guard let (link, side) = connection(c, packet.handle), link.silentSide == nil else {
            return violation(.aclUnknownHandle(packet.handle), at: c)
        }
        guard packet.broadcast == 0 else {
            return violation(.aclInvalidBroadcastFlag(handle: packet.handle, flag: packet.broadcast), at: c)
        }
        guard packet.packetBoundary == .firstNonFlushable || packet.packetBoundary == .continuing else {
            return violation(.aclInvalidPacketBoundary(handle: packet.handle, flag: packet.packetBoundary.rawValue), at: c)
        }
        let maximum = Int(c.configuration.aclDataPacketLength)
        guard packet.data.count <= maximum else {
            return violation(.aclPacketTooLong(handle: packet.handle, length: packet.data.count, maximum: maximum), at: c)
        }
        let total = Int(c.configuration.totalNumACLDataPackets)
        guard c.buffersInUse < total else {
            return violation(.aclBufferOverflow(handle: packet.handle, total: total), at: c)
        }
        c.buffersInUse += 1
        link.queues[side].append(QueuedACL(isStart: packet.packetBoundary == .firstNonFlushable, data: packet.data))
        ensureConnectionEvent(link)
    }

    /// Any packet from a host: commands and ACL data are handled; anything else is a violation.
    func hostPacket(_ packet: HCIPacket, from c: ControllerModel) {
        switch packet {
        case .command(let command): hostCommand(command, from: c)
        case .acl(let acl): hostACL(acl, from: c)
        default: violation(.unsupportedPacketType(packet.type), at: c)
        }
    }
}
