import BLECore
import Capture
import HCI
import L2CAP

/// Seeds cut from capture files: the whole file for the readers and the dissector, its HCI
/// events, advertising payloads and reports, the L2CAP payloads of ATT, signaling and SMP
/// frames, and H4 streams of its packets; and the same records rewritten as pcap and pcapng
/// files (LINKTYPE 201, H4 with a direction header), as the repository has no capture of
/// those formats of its own.
struct CaptureSeeds {
    var corpora: [String: SeedCorpus]

    mutating func add(_ harness: String, _ seed: [UInt8]) {
        corpora[harness, default: SeedCorpus(harness)].add(seed)
    }

    /// Everything `file` (read from `path`) can seed.
    mutating func add(file: CaptureFile, bytes: [UInt8]) {
        add("FuzzDissector", bytes)
        switch file.format {
        case .btsnoop: add("FuzzBTSnoop", Array(bytes.dropFirst(8)))
        case .pcap:
            add("FuzzPcap", [0] + bytes.dropFirst(4))
            // An nRF Sniffer capture's records, after the 24-octet header FuzzNRFSniffer writes.
            if file.linkType == .nordicBLE { add("FuzzNRFSniffer", Array(bytes.dropFirst(24))) }
        case .pcapng: add("FuzzPcapNG", Array(bytes.dropFirst(4)))
        case .packetLogger: add("FuzzPacketLogger", bytes)
        }
        let records = file.readAll().records
        var h4: [[UInt8]] = []
        var hciRecords: [(type: HCIPacketType, payload: [UInt8], received: Bool)] = []
        for record in records {
            guard case let .hci(type, payload) = record.packet else { continue }
            h4.append([type.rawValue] + payload)
            hciRecords.append((type, payload, record.direction == .controllerToHost))
            switch type {
            case .event: addEvent(payload)
            case .acl: addACL(payload)
            default: break
            }
        }
        // H4 streams of 32 packets, read in chunks of 1, 5 and 16 octets.
        for start in stride(from: 0, to: h4.count, by: 32) {
            let stream = h4[start..<min(start + 32, h4.count)].flatMap { $0 }
            for control: UInt8 in [0x00, 0x04, 0x0F] { add("FuzzH4Deframer", [control] + stream) }
        }
        // The same packets as pcap and pcapng files, in pieces of 64 records.
        for start in stride(from: 0, to: hciRecords.count, by: 64) {
            let piece = Array(hciRecords[start..<min(start + 64, hciRecords.count)])
            let pcap = PcapSeedWriter.pcap(piece)
            let pcapng = PcapSeedWriter.pcapng(piece)
            add("FuzzPcap", [0] + pcap.dropFirst(4))
            add("FuzzPcapNG", Array(pcapng.dropFirst(4)))
            add("FuzzDissector", pcap)
            add("FuzzDissector", pcapng)
        }
    }

    private mutating func addEvent(_ payload: [UInt8]) {
        add("FuzzHCIEvent", payload)
        guard let event = try? HCIEvent(decoding: payload), case .leMeta(let meta) = event else { return }
        var steps: [UInt8] = []
        switch meta {
        case .advertisingReport(let event):
            for report in event.reports {
                add("FuzzAdvertisingData", report.data)
                steps += [0x00, report.eventType.rawValue, report.addressType.rawValue, UInt8(bitPattern: report.rssi),
                          UInt8(report.data.count)] + report.data
            }
        case .extendedAdvertisingReport(let event):
            for report in event.reports {
                add("FuzzAdvertisingData", report.data)
                let data = Array(report.data.prefix(255))
                steps += [0x01, UInt8(report.eventType.rawValue & 0xFF), UInt8(report.eventType.rawValue >> 8),
                          report.addressType.rawValue, report.advertisingSID, UInt8(bitPattern: report.txPower),
                          UInt8(bitPattern: report.rssi), UInt8(data.count)] + data
            }
        default:
            return
        }
        add("FuzzAdvertisementAccumulator", steps)
    }

    private mutating func addACL(_ payload: [UInt8]) {
        guard let acl = try? HCIACLDataPacket(decoding: payload), let frame = try? L2CAPBasicFrame(decoding: acl.data) else { return }
        switch frame.channelID {
        case .att: add("FuzzATTPDU", frame.payload)
        case .leSignaling: add("FuzzL2CAPSignaling", frame.payload)
        case .smp: add("FuzzSMP", frame.payload)
        default: break
        }
    }
}
