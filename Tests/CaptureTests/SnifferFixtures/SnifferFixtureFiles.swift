import Foundation
import BLECore
import HCI
@testable import Capture

/// The project's nRF Sniffer (pcap, LINKTYPE 272) and PacketLogger (.pklg) fixtures, made from
/// its own HCI capture Fixtures/captures/bumble-heart-rate.btsnoop (see
/// Fixtures/captures/README.md for the recipe). The files are committed; a test checks that
/// they are exactly what this code writes, and `LINUXBLE_WRITE_FIXTURES=1` rewrites them.
enum SnifferFixtures {
    static let directory: String = {
        URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Fixtures/captures").path
    }()

    static func path(_ name: String) -> String { directory + "/" + name }

    /// The nRF Sniffer header versions the fixtures cover, one file each.
    static let nordicVersions: [UInt8] = [0, 1, 2, 3]

    static func nordicName(version: UInt8) -> String { "heart-rate-nrf-sniffer-v\(version).pcap" }
    static func packetLoggerName(bigEndian: Bool) -> String { bigEndian ? "heart-rate-be.pklg" : "heart-rate-le.pklg" }

    /// Every fixture file's name and how it is made.
    static var files: [(name: String, make: () throws -> [UInt8])] {
        nordicVersions.map { version in (nordicName(version: version), { try nordicPcap(version: version) }) }
            + [false, true].map { bigEndian in (packetLoggerName(bigEndian: bigEndian), { try packetLogger(bigEndian: bigEndian) }) }
    }

    /// The HCI records of the demo capture.
    static func heartRateRecords() throws -> [CaptureRecord] {
        let result = try CaptureFile(contentsOf: path("bumble-heart-rate.btsnoop")).readAll()
        if let error = result.error { throw error }
        return result.records
    }

    /// The demo session over the air (``OverTheAirSession``).
    static func session() throws -> OverTheAirSession {
        try OverTheAirSession(hciRecords: heartRateRecords())
    }

    /// A little-endian microsecond pcap file of LINKTYPE_NORDIC_BLE (272) with the session's
    /// packets behind nRF Sniffer headers of `version`. Version 3 names advertising packets with
    /// Packet ID 0x02 and gives the sniffer's clock in Time; earlier versions use 0x06 for every
    /// packet and give the gap from the end of the previous packet (8 µs per octet on LE 1M,
    /// preamble included).
    static func nordicPcap(version: UInt8) throws -> [UInt8] {
        let packets = try session().packets
        var w = ByteWriter(capacity: 32_768)
        w.writeUInt32(0xA1B2_C3D4)
        w.writeUInt16(2)
        w.writeUInt16(4)
        w.writeUInt32(0)
        w.writeUInt32(0)
        w.writeUInt32(65_535)
        w.writeUInt32(LinkType.nordicBLE.rawValue)
        let start = packets.first?.timestamp ?? 0
        var previousEnd: Int64?
        for (index, packet) in packets.enumerated() {
            let airOctets = packet.record.encoded.count
            let time: UInt32
            if version >= 3 {
                time = UInt32(truncatingIfNeeded: packet.timestamp - start)
            } else {
                time = UInt32(clamping: max(0, packet.timestamp - (previousEnd ?? packet.timestamp)))
            }
            previousEnd = packet.timestamp + Int64(8 * (1 + airOctets))
            var record = packet.record
            record.nordic = NordicBLEHeader(version: version, boardID: 0,
                                            packetID: version >= 3 && !packet.isData ? .advertisingPacket : .dataPacket,
                                            packetCounter: UInt16(truncatingIfNeeded: index), flags: packet.flags,
                                            channelIndex: packet.channelIndex, rssiSample: packet.rssiSample,
                                            eventCounter: packet.eventCounter, time: time)
            let octets = record.encoded
            w.writeUInt32(UInt32(packet.timestamp / 1_000_000))
            w.writeUInt32(UInt32(packet.timestamp % 1_000_000))
            w.writeUInt32(UInt32(octets.count))
            w.writeUInt32(UInt32(octets.count))
            w.writeBytes(octets)
        }
        return w.bytes
    }

    /// The demo capture's HCI records as a PacketLogger file, with two Note records: one before
    /// the first packet, one before the Disconnect command.
    static func packetLogger(bigEndian: Bool) throws -> [UInt8] {
        let records = try heartRateRecords()
        var writer = PacketLoggerWriter(bigEndian: bigEndian)
        func note(_ text: String, at timestamp: Int64) throws {
            let payload = Array(text.utf8) + [0]
            try writer.append(CaptureRecord(index: writer.recordCount, timestamp: timestamp,
                                            packet: .packetLogger(type: .note, payload: payload),
                                            originalLength: payload.count + 1, capturedLength: payload.count + 1))
        }
        try note("LinuxBLE fixture: Fixtures/captures/bumble-heart-rate.btsnoop as PacketLogger", at: records.first?.timestamp ?? 0)
        for record in records {
            if case let .hci(.command, payload) = record.packet, payload.starts(with: [0x06, 0x04]) {
                try note("the central host disconnects", at: record.timestamp)
            }
            var copy = record
            copy.index = writer.recordCount
            try writer.append(copy)
        }
        return writer.bytes
    }

    /// Writes every fixture file into Fixtures/captures.
    static func writeAll() throws {
        for (name, make) in files {
            try Data(make()).write(to: URL(fileURLWithPath: path(name)))
        }
    }
}
