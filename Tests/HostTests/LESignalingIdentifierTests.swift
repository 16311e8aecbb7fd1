import BLECore
import HCI
import Host
import L2CAP
import Testing

/// The Identifiers of a peripheral's L2CAP signaling requests (Core v5.4, Vol 3, Part A, 4),
/// against a scripted controller whose central answers only when the test says so.
@Suite("LE signaling request Identifiers", .timeLimit(.minutes(1)))
struct LESignalingIdentifierTests {
    static let request = LEConnectionParametersRequest(intervalMin: 24, intervalMax: 40, timeout: 500)

    /// The Identifier of the signaling request in `packet`, an ACL packet on CID 0x0005.
    static func identifier(of packet: HCIPacket) -> UInt8? {
        guard case .acl(let acl) = packet, let frame = try? L2CAPBasicFrame(decoding: acl.data),
              frame.channelID == .leSignaling, let signaling = try? LESignalingPacket(decoding: frame.payload) else { return nil }
        return signaling.identifier
    }

    /// The central's L2CAP Connection Parameter Update Response, accepted, to request `identifier`.
    static func accepted(_ identifier: UInt8, handle: UInt16 = 0x0040) -> HCIPacket {
        let answer = LESignalingPacket(identifier: identifier,
                                       command: .connectionParameterUpdateResponse(L2CAPConnectionParameterUpdateResponse(result: .accepted)))
        return .acl(HCIACLDataPacket(handle: handle, packetBoundary: .firstFlushable, data: answer.frame.encoded))
    }

    @Test("with all 255 Identifiers waiting, a request is refused, an answered one is used again, and the rest end once at the link's end")
    func identifiersExhausted() async throws {
        let transport = ScriptedHCITransport()
        let manager = await LEConnectionManager(flow: patientFlow(transport),
                                                controller: LEConnectionManagerBadInputTests.information(buffers: 300))
        transport.inject(try h4(LEConnectionManagerBadInputTests.incoming))
        let connection = try #require(await LEConnectionManagerBadInputTests.firstIncoming(manager))
        let (endings, ending) = AsyncStream.makeStream(of: Void.self)
        let requests = (0..<255).map { _ in
            Task {
                defer { ending.yield() }
                try await connection.updateParameters(Self.request)
            }
        }
        await transport.waitForSent(255)
        let identifiers = transport.sent.compactMap(Self.identifier(of:))
        #expect(Set(identifiers) == Set(1...255), "each waiting request has its own Identifier, never 0x00")

        let refused = await #expect(throws: LEConnectionError.self) { try await connection.updateParameters(Self.request) }
        #expect(refused == .signalingIdentifiersInUse)
        #expect(transport.sent.count == 255, "nothing was sent for the refused request")

        // The answer to 0x07 frees it: the next request takes it, the only one free.
        transport.inject(Self.accepted(0x07))
        var ended = endings.makeAsyncIterator()
        _ = await ended.next()                                          // the request sent as 0x07
        let next = Task { try await connection.updateParameters(Self.request) }
        await transport.waitForSent(256)
        #expect(Self.identifier(of: transport.sent[255]) == 0x07)
        transport.inject(Self.accepted(0x07))
        try await next.value

        transport.finish()
        var succeeded = 0, failed = 0
        for request in requests {
            switch await request.result {
            case .success: succeeded += 1
            case .failure: failed += 1
            }
        }
        #expect(succeeded == 1, "the request answered first")
        #expect(failed == 254, "every request still waiting ends when the link ends")
    }
}
