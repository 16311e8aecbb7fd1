import Testing
import BLECore
@testable import ATT

@Suite("Notifications, indications, confirmations (3.4.7)")
struct ServerInitiatedTests {
    @Test("fixture: Handle Value Notification of a heart rate measurement")
    func notification() throws {
        // Handle Value Notification (0x1b)
        //   Attribute Handle: 0x000c
        //   Attribute Value: 0648 (flags 0x06, 72 bpm; never interpreted by ATT)
        let pdu = try expectRoundTrip(ATTHandleValueNotification.self, hex("1b 0c00 0648"))
        #expect(pdu.handle == 0x000C)
        #expect(pdu.value == [0x06, 0x48])
        #expect(pdu.description == "Handle Value Notification handle 0x000c value 0648")
        #expect(pdu.opcode.kind == .notification)
    }

    @Test("fixture: Handle Value Indication of Service Changed")
    func indication() throws {
        // Handle Value Indication (0x1d)
        //   Attribute Handle: 0x0003 (Service Changed)
        //   Attribute Value: 0100 ffff (affected range 0x0001..0xffff)
        let pdu = try expectRoundTrip(ATTHandleValueIndication.self, hex("1d 0300 0100ffff"))
        #expect(pdu.handle == 0x0003)
        #expect(pdu.value == [0x01, 0x00, 0xFF, 0xFF])
        #expect(pdu.opcode.successfulResponse == .handleValueConfirmation)
    }

    @Test("fixture: Handle Value Confirmation")
    func confirmation() throws {
        // Handle Value Confirmation (0x1e): no parameters
        let pdu = try expectRoundTrip(ATTHandleValueConfirmation.self, hex("1e"))
        #expect(pdu == ATTHandleValueConfirmation())
        #expect(pdu.description == "Handle Value Confirmation")
        #expect(pdu.opcode.kind == .confirmation)
    }

    @Test("fixture: Multiple Handle Value Notification with two tuples")
    func multiple() throws {
        // Multiple Handle Value Notification (0x23)
        //   Handle 0x000c, Value Length 2: 0648
        //   Handle 0x0010, Value Length 1: 5a
        let pdu = try expectRoundTrip(ATTMultipleHandleValueNotification.self, hex("23 0c00 0200 0648 1000 0100 5a"))
        #expect(pdu.tuples.count == 2)
        #expect(pdu.tuples[0].handle == 0x000C)
        #expect(pdu.tuples[0].value == [0x06, 0x48])
        #expect(pdu.tuples[1].handle == 0x0010)
        #expect(pdu.tuples[1].value == [0x5A])
        #expect(pdu.description == "Multiple Handle Value Notification 0x000c: 0648, 0x0010: 5a")
        #expect(pdu.fields == [ATTField("handle_length_value_tuples", .list([
            [ATTField("handle", .integer(12)), ATTField("value_length", .integer(2)), ATTField("value", .octets([0x06, 0x48]))],
            [ATTField("handle", .integer(16)), ATTField("value_length", .integer(1)), ATTField("value", .octets([0x5A]))],
        ]))])
    }

    @Test("fixture: a single tuple of 8 octets meets the format's minimum and is kept")
    func multipleSingleTuple() throws {
        // Multiple Handle Value Notification (0x23), Handle 0x0020, Value Length 4: 01020304
        let pdu = try expectRoundTrip(ATTMultipleHandleValueNotification.self, hex("23 2000 0400 01020304"))
        #expect(pdu.tuples == [.init(handle: 0x20, value: [1, 2, 3, 4])])
    }

    @Test("round trip of built values; the initializer checks the 8-octet minimum")
    func roundTrip() throws {
        #expect(try expectRoundTrip(ATTHandleValueNotification(handle: 0x2A, value: [])) == hex("1b 2a00"))
        #expect(try expectRoundTrip(ATTHandleValueIndication(handle: 0xFFFF, value: [0])) == hex("1d ffff 00"))
        #expect(try expectRoundTrip(ATTHandleValueConfirmation()) == hex("1e"))
        let two = try ATTMultipleHandleValueNotification(tuples: [.init(handle: 1, value: []), .init(handle: 2, value: [])])
        #expect(try expectRoundTrip(two) == hex("23 0100 0000 0200 0000"))
        #expect(throws: ATTEncodingError(opcode: .multipleHandleValueNotification, field: "Handle Length Value Tuple List",
                                         reason: "5 octets; at least 8 are required")) {
            try ATTMultipleHandleValueNotification(tuples: [.init(handle: 1, value: [9])])
        }
        #expect(throws: ATTEncodingError.self) {
            try ATTMultipleHandleValueNotification(tuples: [.init(handle: 1, value: Array(repeating: 0, count: 70_000))])
        }
    }

    @Test("malformed: truncated handle, short or truncated tuples, trailing after confirmation")
    func malformed() {
        expectDecodingError(ATTHandleValueNotification.self, hex("1b 0c"), short("Attribute Handle", at: 1, needs: 2, has: 1))
        expectDecodingError(ATTHandleValueIndication.self, hex("1d"), short("Attribute Handle", at: 1, needs: 2, has: 0))
        expectDecodingError(ATTHandleValueConfirmation.self, hex("1e 1e"), .unexpectedTrailingOctets(offset: 1, count: 1))
        let M = ATTMultipleHandleValueNotification.self
        expectDecodingError(M, hex("23"), short("Handle Length Value Tuple List", at: 1, needs: 8, has: 0))
        expectDecodingError(M, hex("23 0c00 0200 0648"), short("Handle Length Value Tuple List", at: 1, needs: 8, has: 6))
        // The server shall not truncate a tuple (3.4.7.4).
        expectDecodingError(M, hex("23 0c00 0200 0648 1000 0500 5a"), short("Attribute Value", at: 11, needs: 5, has: 1))
        expectDecodingError(M, hex("23 0c00 0200 0648 1000 01"), short("Value Length", at: 9, needs: 2, has: 1))
        expectDecodingError(M, hex("23 0c00 0200 0648 1000"), short("Value Length", at: 9, needs: 2, has: 0))
        expectDecodingError(M, hex("23 0c00 0400 06480000 10"), short("Attribute Handle", at: 9, needs: 2, has: 1))
    }
}
