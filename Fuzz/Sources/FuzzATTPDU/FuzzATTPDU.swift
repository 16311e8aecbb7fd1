import ATT
import BLECore
import FuzzSupport

/// ATT PDU decode (Core v5.4, Vol 3, Part F, 3.4): any octets either decode, and then encode back
/// to themselves and decode to the same value, or throw an error that names the input's opcode
/// and an offset inside it.
enum ATTPDUHarness {
    static func test(_ bytes: [UInt8]) {
        do {
            let pdu = try ATTPDU.decode(bytes)
            FuzzProperty.require(pdu.encoded == bytes, "re-encoding \(Hex.encode(bytes)) gave \(Hex.encode(pdu.encoded))")
            FuzzProperty.require(pdu.opcode.rawValue == bytes.first, "opcode \(pdu.opcode) of \(Hex.encode(bytes))")
            FuzzProperty.require((try? ATTPDU.decode(pdu.encoded)) == pdu, "decode(encode(\(pdu))) differs")
            FuzzProperty.require(!pdu.description.isEmpty, "empty description of \(Hex.encode(bytes))")
            _ = pdu.fields
            _ = pdu.kind
        } catch {
            FuzzProperty.require(error.opcode?.rawValue == bytes.first, "error \(error) names another opcode than \(Hex.encode(bytes))")
            FuzzProperty.require((0...bytes.count).contains(error.offset), "error offset \(error.offset) outside \(Hex.encode(bytes))")
            FuzzProperty.require(!error.description.isEmpty, "empty error description")
        }
    }
}

@_cdecl("FuzzATTPDU_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        ATTPDUHarness.test(FuzzInput.octets(data, size))
        return 0
    }
}
