import Testing
import BLECore
import ATT
@testable import GATT

/// Write Request, Write Command, CCCD and Client Supported Features writes (Core v5.4, Vol 3,
/// Part F, 3.4.5; Part G, 3.3.3.3, 7.2).
@Suite("GATT server: writes", .timeLimit(.minutes(1)))
struct ServerWriteTests {
    @Test("Write Request: written, answered, read back; a variable-length value takes the new length")
    func writeRequest() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect("12 0500 aabb", "13")          // Write Request 0x0005 aabb -> Write Response
        await h.expect("0a 0500", "0b aabb")
        await h.expect("12 0500", "13")               // an empty value empties it (3.4.5.1)
        await h.expect("0a 0500", "0b")
        await h.close()
    }

    @Test("Write Request errors: Invalid Handle, Write Not Permitted, security, Invalid Attribute Value Length")
    func writeErrors() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect("12 0000 01", "01 12 0000 01")
        await h.expect("12 ff00 01", "01 12 ff00 01")
        await h.expect("12 0300 01", "01 12 0300 03")   // "hello" is read only
        await h.expect("12 0200 01", "01 12 0200 03")   // a declaration
        await h.expect("12 2900 01", "01 12 2900 03")   // the Database Hash
        // At ATT_MTU 517 a Write Request can carry 514 octets: over the 512 any value may hold (3.2.9).
        await h.exchangeMTU(517)
        await h.expect("12 0500" + String(repeating: "11", count: 513), "01 12 0500 0d")
        await h.expect("12 0500" + String(repeating: "11", count: 512), "13")
        await h.close()
    }

    @Test("Write Request to a dynamic value: its handler decides; its error is sent")
    func dynamicWrite() async throws {
        let log = ServerTest.Log()
        var h = try await ServerHarness.make(try ServerTest.database(log: log))
        await h.expect("12 1900 010203", "13")
        await h.expect("0a 1900", "0b 010203")
        await h.exchangeMTU(100)
        await h.expect("12 1900" + String(repeating: "ee", count: 21), "01 12 1900 80")   // Application Error 0x80
        #expect(log.writes == ["0:010203"])
        await h.close()
    }

    @Test("Write Command: written without an answer; one that cannot be written is ignored")
    func writeCommand() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        try h.command("52 0500 cc")        // Write Command 0x0005 cc
        try h.command("52 0300 dd")        // read only: ignored
        try h.command("52 ff00 dd")        // no such handle: ignored
        try h.command("52 0500" + String(repeating: "ee", count: 21))   // 24 octets > ATT_MTU: ignored
        try h.command("7f 0102")           // an undefined command: ignored
        // The next PDU the server sends answers the next request: the commands sent nothing.
        await h.expect("0a 0500", "0b cc")
        await h.expect("0a 0300", "0b 68656c6c6f")
        await h.close()
    }

    @Test("CCCD: set within the characteristic's properties, else Value Not Allowed (0x13)")
    func cccd() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect("12 1200 0100", "13")            // AAA8 notifies: Notification
        await h.expect("0a 1200", "0b 0100")
        await h.expect("12 1200 0300", "13")            // and indicates: both bits
        await h.expect("12 1500 0200", "01 12 1500 13") // AAA9 only notifies: no Indication
        await h.expect("12 1500 0100", "13")
        await h.expect("12 1200 010000", "01 12 1200 0d")   // 3 octets: the CCCD is 2 (Invalid Attribute Value Length)
        await h.expect("12 1200 00", "13")              // 1 octet writes the first octet only (3.4.5.1)
        await h.expect("0a 1200", "0b 0000")
        await h.expect("12 1200 0480", "13")            // reserved bits are kept raw
        await h.expect("0a 1200", "0b 0480")
        #expect(await h.connection.configuration(for: 0x0011).rawValue == 0x8004)
        #expect(await h.connection.configuration(for: 0x0014) == .notification)
        await h.close()
    }

    @Test("Client Supported Features: bits may be set, never cleared (Value Not Allowed, Part G, 7.2)")
    func clientSupportedFeatures() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect("12 2700 01", "13")            // Robust Caching
        await h.expect("12 2700 00", "01 12 2700 13") // clearing it
        await h.expect("12 2700", "01 12 2700 13")    // an empty value clears it too
        await h.expect("12 2700 05", "13")            // adding Multiple Handle Value Notifications
        await h.expect("12 2700 0500", "13")          // a trailing zero octet clears nothing
        await h.expect("0a 2700", "0b 0500")
        #expect(await h.connection.clientSupportedFeatures == [0x05, 0x00])
        await h.close()
    }

    @Test("Client Supported Features: bits reserved for future use are ignored, not stored (Part G, 7.2)")
    func clientSupportedFeaturesReservedBits() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect("12 2700 f9", "13")            // Robust Caching, with bits 3-7 (reserved) set
        await h.expect("0a 2700", "0b 01")            // only Robust Caching is kept
        await h.expect("12 2700 f8", "01 12 2700 13") // reserved bits do not stand in for Robust Caching
        await h.expect("12 2700 05ff", "13")          // a second octet is all reserved
        await h.expect("0a 2700", "0b 0500")
        #expect(await h.connection.clientSupportedFeatures == [0x05, 0x00])
        await h.close()
    }

    @Test("events: CCCD changes, written values and client features reach the application")
    func events() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        let peer = h.connection.peer
        await h.expect("12 1200 0100", "13")
        await h.expect("12 0500 99", "13")
        await h.expect("12 2700 04", "13")
        var iterator = h.server.events.makeAsyncIterator()
        #expect(await iterator.next() == .connected(peer))
        #expect(await iterator.next() == .configurationChanged(peer, valueHandle: 0x0011, configuration: .notification))
        #expect(await iterator.next() == .valueWritten(peer, handle: 0x0005, value: [0x99]))
        #expect(await iterator.next() == .clientFeaturesChanged(peer, features: [0x04]))
        await h.close()
    }

    @Test("values clients write to fixed attributes are one per database, seen by every connection")
    func sharedValues() async throws {
        var a = try await ServerHarness.make(try ServerTest.database())
        var b = await ServerHarness.make(a.server)
        await a.expect("12 0500 0102", "13")
        await b.expect("0a 0500", "0b 0102")
        await a.close()
        await b.close()
    }
}
