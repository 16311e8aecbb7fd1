import Testing
import BLECore
@testable import HCI

/// A local name's text: quoted exactly as Swift's debugDescription quotes it, whether or not
/// the name takes the direct path for plain printable ASCII.
@Suite("ADLocalName description")
struct ADLocalNameDescriptionTests {
    @Test("every ASCII octet, alone and inside a name, is quoted as debugDescription quotes it")
    func sameAsDebugDescription() {
        for octet in UInt8(0)...UInt8(0x7F) {
            for bytes in [[octet], Array("Heart".utf8) + [octet] + Array("Rate".utf8)] {
                let name = ADLocalName(bytes: bytes)
                #expect(name.description == String(decoding: bytes, as: UTF8.self).debugDescription, "octet \(octet)")
            }
        }
        #expect(ADLocalName(bytes: Array(#"Bob's "RC" \x"#.utf8)).description == #""Bob\'s \"RC\" \\x""#)
        #expect(ADLocalName(bytes: Array("Café".utf8)).description == "\"Café\"")
        #expect(ADLocalName(bytes: [0x41, 0xFF]).description == "\"A\u{FFFD}\" (invalid UTF-8: 41 ff)")
    }
}
