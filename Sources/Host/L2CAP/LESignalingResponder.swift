import HCI
import L2CAP

/// Host mode's answers on the LE signaling channel, CID 0x0005 (Core v5.4, Vol 3, Part A, 4),
/// as a pure function of one received B-frame payload, the link's role and the user's limits.
///
/// - L2CAP_CONNECTION_PARAMETER_UPDATE_REQ (4.20): a central accepts a valid request within its
///   ``LEConnectionParameterLimits`` (response 0x0000, then the caller applies it with LE
///   Connection Update), and rejects any other (0x0001); a peripheral, which must never receive
///   one, answers Command Reject (Command not understood).
/// - Credit-based connection requests (4.22, 4.25): refused with SPSM not supported, since host
///   mode opens no dynamic channels.
/// - L2CAP_DISCONNECTION_REQ (4.6): no such channel here, so Command Reject (Invalid CID in
///   request, with the CIDs).
/// - L2CAP_CREDIT_BASED_RECONFIGURE_REQ (4.27): no such channels, so
///   L2CAP_CREDIT_BASED_RECONFIGURE_RSP with Result 0x0003, one or more Destination CIDs
///   invalid (4.28).
/// - Responses and Command Rejects go to the request of ours they answer (by Identifier).
/// - A command this host does not know, or one that does not decode, gets Command Reject
///   (Command not understood); a request over the signaling MTU gets Command Reject (Signaling
///   MTU exceeded, with the MTU) (4.1), even one too long to be reassembled at all
///   (``handle(oversized:)``), and an oversized response is discarded. Identifier 0x00 is
///   invalid and is ignored.
/// - Flow Control Credit Indications name channels that do not exist, and are ignored.
///
/// Each received command gives at most one response, so a peer that floods signaling gets as
/// many answers as it sent commands, and no state grows.
struct LESignalingResponder {
    /// What to do about one received signaling packet.
    enum Action: Hashable, Sendable {
        /// Send this packet back on CID 0x0005.
        case respond(LESignalingPacket)
        /// Accepted as central: send `response` (result accepted), then apply the parameters with
        /// LE Connection Update.
        case updateConnection(LEConnectionParametersRequest, response: LESignalingPacket)
        /// The peer answered our request `identifier` with this command (a response or a
        /// Command Reject).
        case answer(identifier: UInt8, LESignalingCommand)
        /// Nothing to send.
        case ignore(String)
    }

    /// The signaling MTU this host offers on LE: 23 octets, the minimum (Vol 3, Part A, 4).
    static let signalingMTU = 23

    /// The action for the B-frame payload `payload` received on a link where this host is `role`.
    static func handle(_ payload: [UInt8], role: LERole, limits: LEConnectionParameterLimits) -> Action {
        guard payload.count >= LESignalingPacket.headerLength else { return .ignore("signaling packet of \(payload.count) octets") }
        let identifier = payload[1]
        guard identifier != 0 else { return .ignore("signaling Identifier 0x00") }
        if payload.count > signalingMTU { return tooLong(code: payload[0], identifier: identifier) }
        let command: LESignalingCommand
        do {
            command = try LESignalingPacket(decoding: payload).command()
        } catch {
            return .respond(reject(identifier, L2CAPCommandReject(reason: .commandNotUnderstood)))
        }
        switch command {
        case .connectionParameterUpdateRequest(let request):
            guard role == .central else { return .respond(reject(identifier, L2CAPCommandReject(reason: .commandNotUnderstood))) }
            let wanted = LEConnectionParametersRequest(request)
            let accepted = limits.accepts(wanted)
            let response = LESignalingPacket(identifier: identifier, command: .connectionParameterUpdateResponse(
                L2CAPConnectionParameterUpdateResponse(result: accepted ? .accepted : .rejected)))
            return accepted ? .updateConnection(wanted, response: response) : .respond(response)
        case .leCreditBasedConnectionRequest:
            return .respond(LESignalingPacket(identifier: identifier, command: .leCreditBasedConnectionResponse(
                L2CAPLECreditBasedConnectionResponse(destinationCID: 0, mtu: 0, mps: 0, initialCredits: 0, result: .spsmNotSupported))))
        case .creditBasedConnectionRequest(let request):
            return .respond(LESignalingPacket(identifier: identifier, command: .creditBasedConnectionResponse(
                L2CAPCreditBasedConnectionResponse(mtu: 0, mps: 0, initialCredits: 0, result: .spsmNotSupported,
                                                   destinationCIDs: request.sourceCIDs.map { _ in 0 }))))
        case .disconnectionRequest(let request):
            var cids: [UInt8] = []
            for cid in [request.destinationCID, request.sourceCID] { cids += [UInt8(cid & 0xFF), UInt8(cid >> 8)] }
            return .respond(reject(identifier, L2CAPCommandReject(reason: .invalidCIDInRequest, reasonData: cids)))
        case .creditBasedReconfigureRequest:
            return .respond(LESignalingPacket(identifier: identifier, command: .creditBasedReconfigureResponse(
                L2CAPCreditBasedReconfigureResponse(result: .invalidDestinationCID))))
        case .flowControlCreditIndication:
            return .ignore("credits for a channel that does not exist")
        case .commandReject, .connectionParameterUpdateResponse, .leCreditBasedConnectionResponse,
             .creditBasedConnectionResponse, .creditBasedReconfigureResponse, .disconnectionResponse:
            return .answer(identifier: identifier, command)
        case .unknown:
            return .respond(reject(identifier, L2CAPCommandReject(reason: .commandNotUnderstood)))
        }
    }

    /// The action for a signaling packet too long for the link's reassembly limit, of which
    /// only the start arrived (`leadingPayload`, from ``ACLOversizedPDU``): as for any packet
    /// over the signaling MTU, when its Code and Identifier arrived and the Identifier is not
    /// 0x00; else nothing, since a Command Reject must echo the Identifier.
    static func handle(oversized leadingPayload: [UInt8]) -> Action {
        guard leadingPayload.count >= 2 else { return .ignore("oversized signaling packet without its Identifier") }
        let identifier = leadingPayload[1]
        guard identifier != 0 else { return .ignore("signaling Identifier 0x00") }
        return tooLong(code: leadingPayload[0], identifier: identifier)
    }

    /// A packet over the signaling MTU: a request (or an unknown command) gets Command Reject,
    /// Signaling MTU exceeded, with the MTU this host offers (4, 4.1); a response or an
    /// indication is discarded, as nothing answers one.
    private static func tooLong(code: UInt8, identifier: UInt8) -> Action {
        let code = L2CAPSignalingCode(rawValue: code)
        guard !code.isAnswerOrIndication else { return .ignore("oversized \(code) discarded") }
        return .respond(reject(identifier, L2CAPCommandReject(reason: .signalingMTUExceeded, reasonData: [UInt8(signalingMTU), 0])))
    }

    private static func reject(_ identifier: UInt8, _ reject: L2CAPCommandReject) -> LESignalingPacket {
        LESignalingPacket(identifier: identifier, command: .commandReject(reject))
    }
}
