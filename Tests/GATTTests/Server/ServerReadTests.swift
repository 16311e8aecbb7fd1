import Testing
import BLECore
import ATT
@testable import GATT

/// Read, Read Blob, Read Multiple and Read Multiple Variable against ``ServerTest/database(log:)``
/// (Core v5.4, Vol 3, Part F, 3.4.4.3-3.4.4.12).
@Suite("GATT server: reads", .timeLimit(.minutes(1)))
struct ServerReadTests {
    static let long = ServerTest.longValue

    @Test("Read: the value; a long one cut to ATT_MTU-1")
    func read() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect("0a 0300", "0b 68656c6c6f")                                        // "hello"
        await h.expect("0a 0500", "0b" + Hex.encode(Array(Self.long.prefix(22))))         // 22 of 300 octets
        await h.expect("0a 1900", "0b 0a0b0c")                                            // the dynamic value
        await h.expect("0a 1f00", "0b" + Hex.encode(Array("LinuxBLE".utf8)))              // Device Name (added)
        await h.expect("0a 2100", "0b 0000")                                              // Appearance: Unknown
        await h.expect("0a 2b00", "0b 00")                                                // Server Supported Features
        await h.expect("0a 2700", "0b")                                                   // Client Supported Features: none yet
        await h.close()
    }

    @Test("Read errors: Invalid Handle for 0x0000 and a handle no attribute has; Read Not Permitted")
    func readErrors() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect("0a 0000", "01 0a 0000 01")   // Error Response, Read Request, 0x0000, Invalid Handle
        await h.expect("0a ff00", "01 0a ff00 01")
        await h.expect("0a 0700", "01 0a 0700 02")   // AAA3 is write only: Read Not Permitted
        await h.expect("0a 2400", "01 0a 2400 02")   // Service Changed's value is not readable (Part G, 7.1)
        await h.close()
    }

    @Test("Read Blob: a long value part by part; empty at its end; Invalid Offset past it")
    func readBlob() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        var collected: [UInt8] = []
        var offset = 0
        while offset <= Self.long.count {
            let request = Hex.encode([0x0C, 0x05, 0x00, UInt8(truncatingIfNeeded: offset), UInt8(truncatingIfNeeded: offset >> 8)])
            let answer = try #require(await h.send(request))
            let octets = try #require(Hex.decode(answer))
            #expect(octets.first == 0x0D)
            collected += octets.dropFirst()
            if octets.count - 1 < 22 { break }
            offset += 22
        }
        #expect(collected == Self.long)
        await h.expect("0c 0500 2c01", "0d")              // offset 300 = the length: empty Part Attribute Value
        await h.expect("0c 0500 2d01", "01 0c 0500 07")   // offset 301: Invalid Offset
        await h.close()
    }

    @Test("Read Blob: Attribute Not Long (0x0b) for values of a fixed length within ATT_MTU-1")
    func attributeNotLong() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect("0c 0300 0000", "01 0c 0300 0b")   // "hello": constant, 5 octets
        await h.expect("0c 1200 0000", "01 0c 1200 0b")   // a CCCD: 2 octets
        await h.expect("0c 0200 0100", "01 0c 0200 0b")   // a characteristic declaration
        await h.expect("0c 2900 0000", "01 0c 2900 0b")   // the Database Hash: 16 octets
        // A value that can change has no fixed length: 0xAAA8 is notified.
        await h.expect("0c 1100 0000", "0d 00")
        // The dynamic value reads from the offset through its handler, which says Invalid Offset.
        await h.expect("0c 1900 0100", "0d 0b0c")
        await h.expect("0c 1900 0400", "01 0c 1900 07")
        // Permissions come first.
        await h.expect("0c 0700 0000", "01 0c 0700 02")
        await h.expect("0c 0000 0000", "01 0c 0000 01")
        await h.close()
    }

    @Test("Read Multiple: values concatenated in request order, cut to ATT_MTU-1; the first handle at fault")
    func readMultiple() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        await h.expect("0e 0300 1100", "0f 68656c6c6f 00")
        await h.expect("0e 1100 0300 1900", "0f 00 68656c6c6f 0a0b0c")
        await h.expect("0e 0300 0500", "0f 68656c6c6f" + Hex.encode(Array(Self.long.prefix(17))))
        await h.expect("0e 0300 ff00 0700", "01 0e ff00 01")   // Invalid Handle at 0x00ff
        await h.expect("0e 0300 0700 ff00", "01 0e 0700 02")   // Read Not Permitted at 0x0007
        await h.expect("0e 0900 0300", "01 0e 0900 05")        // Insufficient Authentication at 0x0009
        await h.close()
    }

    @Test("Read Multiple Variable: Length Value Tuples; the last cut; never a split Value Length")
    func readMultipleVariable() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        // 0x0003 "hello" (length 5), 0x0011 00 (length 1)
        await h.expect("20 0300 1100", "21 0500 68656c6c6f 0100 00")
        // 0x0003 then 0x0005: 7 octets, then Value Length 300 (0x012c) and the 13 octets left of ATT_MTU-1
        await h.expect("20 0300 0500", "21 0500 68656c6c6f 2c01" + Hex.encode(Array(Self.long.prefix(13))))
        // three "hello" tuples take 21 of 22 octets: the fourth's Value Length would be split, so it is left out
        await h.expect("20 0300 0300 0300 1100", "21 0500 68656c6c6f 0500 68656c6c6f 0500 68656c6c6f")
        // an empty value: Value Length 0
        await h.expect("20 2700 0300", "21 0000 0500 68656c6c6f")   // Client Supported Features: empty
        await h.expect("20 0300 0700", "01 20 0700 02")
        await h.close()
    }

    @Test("A request longer than ATT_MTU is answered with Invalid PDU (0x04), handle 0x0000")
    func oversized() async throws {
        var h = try await ServerHarness.make(try ServerTest.database())
        // Read Multiple with 12 handles: 25 octets > 23
        await h.expect("0e" + String(repeating: "0300", count: 12), "01 0e 0000 04")
        // after an MTU exchange the same request is served
        await h.exchangeMTU(100)
        await h.expect("0e" + String(repeating: "0300", count: 12), "0f" + String(repeating: "68656c6c6f", count: 12))
        await h.close()
    }
}
