import BLECore
import FuzzSupport
import L2CAP

/// LE signaling decode (Core v5.4, Vol 3, Part A, 4), from a B-frame payload on CID 0x0005: a
/// packet that decodes encodes back to its own octets; a command that parses from it encodes back
/// to the packet's data, and rebuilding the packet from the command gives the same octets. Errors
/// name the input's Code and an offset inside it. The B-frame that carries the packet round-trips
/// too.
enum L2CAPSignalingHarness {
    static func test(_ bytes: [UInt8]) {
        let packet: LESignalingPacket
        do {
            packet = try LESignalingPacket(decoding: bytes)
        } catch {
            FuzzProperty.require(error.code?.rawValue == bytes.first, "error \(error) names another Code than \(Hex.encode(bytes))")
            FuzzProperty.require((0...bytes.count).contains(error.underlying.offset), "error offset outside \(Hex.encode(bytes)): \(error)")
            return
        }
        FuzzProperty.require(packet.encoded == bytes, "re-encoding \(Hex.encode(bytes)) gave \(Hex.encode(packet.encoded))")
        FuzzProperty.require(!packet.description.isEmpty, "empty description of \(Hex.encode(bytes))")
        do {
            let command = try packet.command()
            FuzzProperty.require(command.code == packet.code, "command \(command) has another Code than \(Hex.encode(bytes))")
            FuzzProperty.require(command.encodedData == packet.data, "command \(command) encodes \(Hex.encode(command.encodedData)), data \(Hex.encode(packet.data))")
            FuzzProperty.require(LESignalingPacket(identifier: packet.identifier, command: command).encoded == bytes,
                                 "packet rebuilt from \(command) differs from \(Hex.encode(bytes))")
            _ = command.isRequest
            FuzzProperty.require(!command.description.isEmpty, "empty description of \(command)")
        } catch {
            FuzzProperty.require(error.code == packet.code, "command error \(error) names another Code than \(Hex.encode(bytes))")
            FuzzProperty.require((LESignalingPacket.headerLength...bytes.count).contains(error.underlying.offset),
                                 "command error offset outside the data of \(Hex.encode(bytes)): \(error)")
        }
        let frame = packet.frame
        FuzzProperty.require((try? L2CAPBasicFrame(decoding: frame.encoded)) == frame, "B-frame round trip of \(Hex.encode(bytes))")
    }
}

@_cdecl("FuzzL2CAPSignaling_main")
func fuzzMain(_ argc: Int32, _ argv: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>) -> Int32 {
    runFuzzer(argc, argv) { data, size in
        L2CAPSignalingHarness.test(FuzzInput.octets(data, size))
        return 0
    }
}
