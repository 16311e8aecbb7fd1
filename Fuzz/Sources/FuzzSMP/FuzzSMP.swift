import BLECore
import FuzzSupport
import SMP

/// SMP command decode (Core v5.4, Vol 3, Part H, 3.3-3.6), from a B-frame payload on CID 0x0006:
/// a command that decodes encodes back to its own octets and decodes to the same value; one that
/// does not throws an error naming the input's Code and an offset inside it.
enum SMPHarness {
    static func test(_ bytes: [UInt8]) {
        do {
            let pdu = try SMPPDU(decoding: bytes[...])
            FuzzProperty.require(pdu.encoded == bytes, "re-encoding \(Hex.encode(bytes)) gave \(Hex.encode(pdu.encoded))")
            FuzzProperty.require((try? SMPPDU(decoding: pdu.encoded[...])) == pdu, "decode(encode(\(pdu))) differs")
            FuzzProperty.require(!pdu.description.isEmpty, "empty description of \(Hex.encode(bytes))")
        } catch {
            FuzzProperty.require(error.code?.rawValue == bytes.first, "error \(error) names another Code than \(Hex.encode(bytes))")
            FuzzProperty.require((0...bytes.count).contains(error.underlying.offset), "error offset outside \(Hex.encode(bytes)): \(error)")
            FuzzProperty.require(!error.description.isEmpty, "empty error description")
        }
    }
}

@_cdecl("FuzzSMP_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        SMPHarness.test(FuzzInput.octets(data, size))
        return 0
    }
}
