import HCI
@testable import Host
import L2CAP
import Testing

/// Host mode's answers on the LE signaling channel (Core v5.4, Vol 3, Part A, 4) for the
/// requests about channels it never opens.
@Suite("LE signaling responder: requests about channels that do not exist")
struct LESignalingResponderTests {
    static func answer(_ command: LESignalingCommand, identifier: UInt8 = 0x07) -> LESignalingResponder.Action {
        LESignalingResponder.handle(LESignalingPacket(identifier: identifier, command: command).encoded, role: .central,
                                    limits: LEConnectionParameterLimits())
    }

    @Test("a Credit Based Reconfigure Request gets its Response with Result 0x0003, Destination CIDs invalid (4.27, 4.28), not a Command Reject")
    func reconfigureRequestGetsItsResponse() {
        let action = Self.answer(.creditBasedReconfigureRequest(.init(mtu: 256, mps: 256, destinationCIDs: [0x0040, 0x0041])))
        #expect(action == .respond(LESignalingPacket(identifier: 0x07, command: .creditBasedReconfigureResponse(.init(result: .invalidDestinationCID)))))
    }

    @Test("a command too long to reassemble gets Command Reject, Signaling MTU exceeded, when its Identifier arrived and is valid (4.1)")
    func oversizedCommandRejectedByIdentifier() {
        #expect(LESignalingResponder.handle(oversized: [0x12, 0x09, 0x54, 0x02]) == .respond(LESignalingPacket(identifier: 0x09, command: .commandReject(
            L2CAPCommandReject(reason: .signalingMTUExceeded, reasonData: [23, 0])))))
        #expect(LESignalingResponder.handle(oversized: [0x12]) == .ignore("oversized signaling packet without its Identifier"))
        #expect(LESignalingResponder.handle(oversized: []) == .ignore("oversized signaling packet without its Identifier"))
        #expect(LESignalingResponder.handle(oversized: [0x12, 0x00]) == .ignore("signaling Identifier 0x00"))
        // An unknown command is treated as a request; a response is discarded (4).
        #expect(LESignalingResponder.handle(oversized: [0x7F, 0x0A]) == .respond(LESignalingPacket(identifier: 0x0A, command: .commandReject(
            L2CAPCommandReject(reason: .signalingMTUExceeded, reasonData: [23, 0])))))
        #expect(LESignalingResponder.handle(oversized: [0x13, 0x0B]) == .ignore("oversized Connection Parameter Update Response (0x13) discarded"))
    }

    @Test("a response over the signaling MTU is discarded, not answered with Command Reject (4)")
    func oversizedResponseDiscarded() {
        // L2CAP_DISCONNECTION_RSP, Identifier 0x05, with 20 octets of data where 4 belong: 24 octets.
        let response = [0x07, 0x05, 0x14, 0x00] + [UInt8](repeating: 0, count: 20)
        #expect(LESignalingResponder.handle(response, role: .central, limits: LEConnectionParameterLimits())
                == .ignore("oversized Disconnection Response (0x07) discarded"))
        let request = [0x12, 0x05, 0x14, 0x00] + [UInt8](repeating: 0, count: 20)
        #expect(LESignalingResponder.handle(request, role: .central, limits: LEConnectionParameterLimits())
                == .respond(LESignalingPacket(identifier: 0x05, command: .commandReject(
                    L2CAPCommandReject(reason: .signalingMTUExceeded, reasonData: [23, 0])))))
    }

    @Test("a Disconnection Request gets Command Reject, Invalid CID in request, with its Destination CID then Source CID (4.1, 4.6)")
    func disconnectionRequestRejectedWithItsCIDs() {
        let action = Self.answer(.disconnectionRequest(.init(destinationCID: 0x0040, sourceCID: 0x0041)))
        #expect(action == .respond(LESignalingPacket(identifier: 0x07, command: .commandReject(
            L2CAPCommandReject(reason: .invalidCIDInRequest, reasonData: [0x40, 0x00, 0x41, 0x00])))))
    }
}
