import BLECore
import FuzzSupport
import HCI

/// HCI event decode (Core v5.4, Vol 4, Part E, 7.7), from an event packet without its H4
/// indicator: a packet that decodes encodes back to its own octets and decodes to the same value;
/// one that does not throws an error whose offset lies inside the packet. The H4 frame of the
/// same packet decodes alike.
enum HCIEventHarness {
    static func test(_ bytes: [UInt8]) {
        do {
            let event = try HCIEvent(decoding: bytes)
            FuzzProperty.require(event.encoded == bytes, "re-encoding \(Hex.encode(bytes)) gave \(Hex.encode(event.encoded))")
            FuzzProperty.require(event.code.rawValue == bytes[0], "event code \(event.code) of \(Hex.encode(bytes))")
            FuzzProperty.require((try? HCIEvent(decoding: event.encoded)) == event, "decode(encode(\(event))) differs")
            FuzzProperty.require(!event.description.isEmpty, "empty description of \(Hex.encode(bytes))")
            if case .leMeta(let meta) = event {
                _ = meta.subeventCode
                FuzzProperty.require([meta.subeventCode.rawValue] + meta.subeventParameters == Array(bytes.dropFirst(2)),
                                     "LE Meta subevent octets of \(Hex.encode(bytes))")
            }
        } catch {
            FuzzProperty.require((0...bytes.count).contains(error.offset), "error offset \(error.offset) outside \(Hex.encode(bytes)): \(error)")
            FuzzProperty.require(!error.description.isEmpty, "empty error description")
        }
        // The same octets as an H4 frame: the packet layer alone, which never looks inside.
        do {
            let packet = try HCIPacket(h4: [HCIPacketType.event.rawValue] + bytes)
            FuzzProperty.require(packet.h4Encoded == [HCIPacketType.event.rawValue] + bytes, "H4 re-encoding of \(Hex.encode(bytes))")
        } catch {
            FuzzProperty.require((0...bytes.count + 1).contains(error.offset), "H4 error offset \(error.offset) of \(Hex.encode(bytes))")
        }
    }
}

@_cdecl("FuzzHCIEvent_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        HCIEventHarness.test(FuzzInput.octets(data, size))
        return 0
    }
}
