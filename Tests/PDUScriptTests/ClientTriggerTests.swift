import Testing
@testable import PDUScript

/// Client triggers whose answer depends on what went before them.
@Suite("PDU scripts: client triggers")
struct ClientTriggerTests {
    /// Runs `text` as a client script against the stack; expects it to pass.
    func expectPasses(_ text: String, name: String, sourceLocation: SourceLocation = #_sourceLocation) async throws {
        let script = try PDUScript(parsing: text, name: name)
        let outcome = await PDUScriptRunner.run(script, databases: FixtureScriptTests.databases)
        #expect(outcome.failures.isEmpty, "\(outcome.failures.joined(separator: "; "))\n\(outcome.transcript.joined(separator: "\n"))",
                sourceLocation: sourceLocation)
    }

    @Test("next-notification with no subscription answers none rather than waiting for one")
    func nextNotificationWithoutSubscription() async throws {
        try await expectPasses("""
            role: client
            trigger next-notification
            result none
            """, name: "no-subscription")
    }

    @Test("next-notification after the only subscription ended answers none")
    func nextNotificationAfterUnsubscribe() async throws {
        try await expectPasses("""
            role: client
            trigger discover-primary-uuid 180F
            expect 06 0100 ffff 0028 0f18
            send   07 0c00 0f00
            expect 06 1000 ffff 0028 0f18
            send   01 06 1000 0a
            result services 0x000c..0x000f 180F
            trigger discover-characteristics 0x000c
            expect 08 0c00 0f00 0328
            send   09 07 0d00 12 0e00 192a
            expect 08 0e00 0f00 0328
            send   01 08 0e00 0a
            result characteristics 0x000d 0x12 value 0x000e 2A19
            trigger subscribe 0x000e notify
            expect 04 0f00 0f00
            send   05 01 0f00 0229
            expect 12 0f00 0100
            send   13
            result ok
            send   1b 0e00 62
            trigger next-notification
            result notification 0x000e 62
            trigger unsubscribe 0x000e
            expect 12 0f00 0000
            send   13
            result ok
            trigger next-notification
            result none
            """, name: "after-unsubscribe")
    }
}
