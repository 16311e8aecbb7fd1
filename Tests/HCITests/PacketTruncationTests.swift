import BLECore
import HCI
import Testing

/// Whole packets cut short: with Parameter_Total_Length left as sent, the packet layer reports
/// the mismatch; with it corrected to the octets present, the command or event reports the first
/// field the cut reaches, at its offset in the packet. Every command and event this package
/// decodes is covered.
@Suite("Packets truncated at every length")
struct PacketTruncationTests {
    static let commands: [[UInt8]] = [
        hex("03 0c 00"),
        hex("01 0c 08 ff ff ff ff ff ff bf 3d"),
        hex("01 10 00"), hex("02 10 00"), hex("03 10 00"), hex("09 10 00"),
        hex("01 20 08 7f fe 02 4d 03 00 00 00"),
        hex("02 20 00"), hex("60 20 00"), hex("03 20 00"),
        hex("05 20 06 2e f0 35 bd 25 61"),
        hex("0b 20 07 01 10 00 10 00 00 00"),
        hex("0c 20 02 01 00"),
        hex("41 20 0d 00 00 05 00 12 00 12 00 01 36 00 12 00"),
        hex("42 20 06 01 02 f4 01 02 00"),
        hex("06 20 0f a0 00 f0 00 00 01 00 00 00 00 00 00 00 07 00"),
        hex("08 20 20 0a 02 01 06 06 09 4c 69 6e 75 78") + Array(repeating: 0, count: 21),
        hex("09 20 20 08 07 09 73 65 6e 73 6f 72") + Array(repeating: 0, count: 23),
        hex("0a 20 01 01"),
        hex("36 20 19 00 13 00 a0 00 00 d2 00 00 07 01 00 00 00 00 00 00 00 00 01 01 00 01 00 00"),
        hex("37 20 07 00 03 01 03 02 01 02"),
        hex("38 20 04 00 03 01 00"),
        hex("39 20 0a 01 02 00 f4 01 00 01 00 00 0a"),
        hex("3a 20 00"),
        hex("0d 20 19 60 00 30 00 00 01 c3 a2 11 22 33 f0 00 18 00 28 00 00 00 2a 00 00 00 00 00"),
        hex("43 20 2a 01 01 00 00 00 00 00 00 00 05 60 00 30 00 18 00 28 00 00 00 f4 01 00 00 00 00 60 00 18 00 18 00 28 00 00 00 f4 01 00 00 00 00"),
        hex("0e 20 00"),
        hex("06 04 03 40 00 13"),
        hex("13 20 0e 40 00 24 00 24 00 00 00 f4 01 00 00 00 00"),
        hex("22 20 06 02 00 77 00 90 42"),
        hex("30 20 02 02 00"),
        hex("32 20 07 02 00 00 02 02 00 00"),
        hex("1a 20 12 40 00 15 0a 76 c1 17 71 79 9b 77 24 92 fe c0 bc f9 51"),
    ]

    static let events: [[UInt8]] = [
        hex("0e 07 01 02 20 00 fb 00 10"),
        hex("0f 04 00 01 06 04"),
        hex("05 04 00 40 00 3e"),
        hex("13 09 02 40 00 03 00 41 00 01 00"),
        hex("08 04 00 40 00 01"),
        hex("59 05 00 40 00 01 10"),
        hex("10 01 05"),
        hex("3e 13 01 00 40 00 01 01 c3 a2 11 22 33 f0 18 00 00 00 48 00 05"),
        hex("3e 0f 02 01 00 01 c3 a2 11 22 33 f0 03 02 01 06 c4"),
        hex("3e 0a 03 00 40 00 24 00 00 00 f4 01"),
        hex("3e 0c 04 00 40 00 09 00 00 00 00 00 00 00"),
        hex("3e 0d 05 40 00 88 77 66 55 44 33 22 11 34 12"),
        hex("3e 0b 07 02 00 1b 00 48 01 2d 00 d8 01"),
        hex("3e 1f 0a 00 02 00 00 00 91 22 7f b3 46 b4 00 00 00 00 00 00 00 00 00 00 00 00 24 00 00 00 f4 01 00"),
        hex("3e 22 29 00 41 00 01 02 91 22 7f b3 46 b4 2e f0 35 bd 25 61 6f 00 60 8c b7 69 18 00 04 00 c8 00 01 00 ff ff"),
        hex("3e 06 0c 00 02 00 02 02"),
        hex("3e 06 12 00 00 40 00 05"),
        hex("3e 28 0d 01 13 80 01 6f 00 60 8c b7 69 01 00 ff 7f ad 00 00 00 00 00 00 00 00 00 0e 02 01 02 03 02 af fe 06 09 4e 58 4d 31 44"),
        hex("3e 04 14 02 00 00"),
    ]

    /// The field map of a decoded command, at packet offsets.
    static func fields(of command: any HCICommand) -> [FieldMap.Field] {
        func open<C: HCICommand>(_ c: C) -> [FieldMap.Field] { FieldMap.fields(of: c) }
        return open(command).map { FieldMap.Field(name: $0.name, offset: $0.offset + 3, size: $0.size) }
    }

    /// The field map of a decoded event, at packet offsets.
    static func fields(of event: HCIEvent) -> [FieldMap.Field] {
        func at<T: HCIParameterLayout>(_ value: T, _ base: Int) -> [FieldMap.Field] {
            FieldMap.fields(of: value).map { FieldMap.Field(name: $0.name, offset: $0.offset + base, size: $0.size) }
        }
        let meta = [FieldMap.Field(name: "Subevent_Code", offset: 2, size: 1)]
        switch event {
        case .disconnectionComplete(let e): return at(e, 2)
        case .encryptionChange(let e): return at(e, 2)
        case .encryptionChangeV2(let e): return at(e, 2)
        case .commandComplete(let e): return at(e, 2)
        case .commandStatus(let e): return at(e, 2)
        case .hardwareError(let e): return at(e, 2)
        case .numberOfCompletedPackets(let e): return at(e, 2)
        case .leMeta(let meta_):
            switch meta_ {
            case .connectionComplete(let e): return meta + at(e, 3)
            case .advertisingReport(let e): return meta + at(e, 3)
            case .connectionUpdateComplete(let e): return meta + at(e, 3)
            case .readRemoteFeaturesComplete(let e): return meta + at(e, 3)
            case .longTermKeyRequest(let e): return meta + at(e, 3)
            case .dataLengthChange(let e): return meta + at(e, 3)
            case .enhancedConnectionComplete(let e): return meta + at(e, 3)
            case .phyUpdateComplete(let e): return meta + at(e, 3)
            case .extendedAdvertisingReport(let e): return meta + at(e, 3)
            case .channelSelectionAlgorithm(let e): return meta + at(e, 3)
            case .enhancedConnectionCompleteV2(let e): return meta + at(e, 3)
            case .advertisingSetTerminated(let e): return meta + at(e, 3)
            case .unknown: return []
            }
        case .unknown: return []
        }
    }

    @Test("commands", arguments: commands)
    func command(_ packet: [UInt8]) throws {
        let value = try HCICommandValue(decoding: packet)
        let command = try #require(value.command, "a command this package decodes")
        #expect(value.packet.encoded == packet)
        let fields = Self.fields(of: command)
        for length in 3..<packet.count {
            // Parameter_Total_Length as sent: the packet layer sees the mismatch.
            #expect(throws: BLEDecodingError.truncated(field: "Parameters", offset: 3, needed: packet.count - 3, available: length - 3)) {
                _ = try HCICommandValue(decoding: packet.prefix(length))
            }
            // Parameter_Total_Length corrected: the command names its field.
            var cut = Array(packet.prefix(length))
            cut[2] = UInt8(length - 3)
            let field = try #require(fields.first { $0.offset + $0.size > length })
            #expect(throws: BLEDecodingError.truncated(field: field.name, offset: field.offset, needed: field.size, available: length - field.offset)) {
                _ = try HCICommandValue(decoding: cut)
            }
        }
    }

    @Test("events", arguments: events)
    func event(_ packet: [UInt8]) throws {
        let event = try HCIEvent(decoding: packet)
        if case .unknown = event { Issue.record("not decoded: \(event)") }
        #expect(event.encoded == packet)
        let fields = Self.fields(of: event)
        for length in 2..<packet.count {
            #expect(throws: BLEDecodingError.truncated(field: "Parameters", offset: 2, needed: packet.count - 2, available: length - 2)) {
                _ = try HCIEvent(decoding: packet.prefix(length))
            }
            var cut = Array(packet.prefix(length))
            cut[1] = UInt8(length - 2)
            guard let field = fields.first(where: { $0.offset + $0.size > length }) else {
                // Only Return_Parameters, which takes whatever is left, was cut.
                #expect(throws: Never.self) { _ = try HCIEvent(decoding: cut) }
                continue
            }
            #expect(throws: BLEDecodingError.truncated(field: field.name, offset: field.offset, needed: field.size, available: length - field.offset)) {
                _ = try HCIEvent(decoding: cut)
            }
        }
    }
}
