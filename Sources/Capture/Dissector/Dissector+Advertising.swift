import BLECore
import HCI

/// Advertising reports: their fragments joined into payloads before any is parsed, with the
/// scanner's own ``AdvertisingChainReassembler`` (one per controller), and their advertisers
/// remembered (Core v5.4, Vol 4, Part E, 7.7.65.2 and 7.7.65.13; Vol 6, Part B, 2.3.4).
extension Dissector {
    /// The advertisers of the reports that decode in an LE Advertising Report or LE Extended
    /// Advertising Report event that does not decode as a whole (``SalvagedAdvertisingReports``);
    /// returns how many reports counted (0 for any other event). Their fragments join their
    /// chains like any others, so that a chain's next fragment still finds its start.
    mutating func learnSalvagedReports(_ eventPacket: HCIEventPacket, packet: inout DissectedPacket) -> Int {
        guard eventPacket.code == .leMeta, let subevent = eventPacket.parameters.first.map(LEMetaSubeventCode.init(rawValue:)) else { return 0 }
        let fields = eventPacket.parameters.dropFirst()
        switch subevent {
        case .advertisingReport:
            let reports = LEMetaEvent.AdvertisingReport.salvaging(fields).reports
            for report in reports { _ = see(report, packet: &packet) }
            return reports.count
        case .extendedAdvertisingReport:
            let reports = LEMetaEvent.ExtendedAdvertisingReport.salvaging(fields).reports
            for report in reports { _ = see(report, packet: &packet) }
            return reports.count
        default:
            return 0
        }
    }

    /// Records a legacy advertising report's advertiser (see ``seeReport``). A legacy report
    /// goes through the chains too: it ends an open chain of an extended advertiser without an
    /// ADI field, which shares its key, as it does in the scanner.
    mutating func see(_ report: LEAdvertisingReport, packet: inout DissectedPacket) -> AdvertisingSummary {
        let time = Self.chainTime(packet)
        let outcome = withController(packet.controllerIndex) { $0.advertising.add(report, at: time) }
        return seeReport(report.address, report.addressType, eventType: .legacy(report.eventType),
                         connectable: report.eventType.isConnectable, rssi: report.rssi, data: report.data,
                         outcome: outcome, packet: &packet)
    }

    /// Records an extended advertising report's advertiser (see ``seeReport``), its data joined
    /// with the rest of its chain first.
    mutating func see(_ report: LEExtendedAdvertisingReport, packet: inout DissectedPacket) -> AdvertisingSummary {
        let time = Self.chainTime(packet)
        let outcome = withController(packet.controllerIndex) { $0.advertising.add(report, at: time) }
        return seeReport(report.address, report.addressType, eventType: .extended(report.eventType),
                         connectable: report.eventType.isConnectable, rssi: report.rssi, data: report.data,
                         outcome: outcome, packet: &packet)
    }

    /// The record's time for the chains' gap bound; nil when the capture's timestamp is unusable.
    static func chainTime(_ packet: DissectedPacket) -> Duration? {
        packet.hasTimestamp ? .microseconds(packet.timestamp) : nil
    }

    /// Records one advertising report's advertiser and returns the report, decoded, for the line.
    /// Only a whole payload is parsed as AD structures (a single report's data, or a chain's,
    /// joined): a fragment of a chain is shown by its size, never read as AD of its own. The
    /// name is the payload's Local Name, in advertising data or scan response alike. A chain
    /// that the report ended without its last fragment, or that was dropped to make room, is
    /// noted on the packet, truncated.
    mutating func seeReport(_ address: BluetoothAddress, _ type: LEAddressType, eventType: AdvertisingSummary.ReportEventType,
                            connectable: Bool,
                            rssi rawRSSI: Int8, data octets: [UInt8], outcome: AdvertisingChainReassembler.Outcome,
                            packet: inout DissectedPacket) -> AdvertisingSummary {
        let record = packet.index
        if let cut = outcome.cutShort {
            let data = AdvertisingData(decoding: cut.data)
            packet.notes.append("extended advertising chain of \(cut.key) ended without its last fragment"
                                + " (\(Self.fragments(cut.fragments)), \(cut.data.count) octets, truncated)"
                                + (data.elements.isEmpty ? "" : ": \(data)"))
            seeAdvertiser(cut.key.address, type: cut.key.addressType, rssi: nil, connectable: false,
                          name: data.localNameString, record: record, counts: false)
        }
        for dropped in outcome.evicted {
            packet.notes.append("extended advertising chain of \(dropped.key) dropped to make room"
                                + " (\(Self.fragments(dropped.fragments)), \(dropped.data.count) octets lost)")
        }
        let rssi = rawRSSI == 127 ? nil : rawRSSI  // 127: RSSI not available
        let data = outcome.payload.map { AdvertisingData(decoding: $0.data) } ?? AdvertisingData(decoding: [])
        seeAdvertiser(address, type: type, rssi: rssi, connectable: connectable, name: data.localNameString, record: record)
        return AdvertisingSummary(address: address, addressType: type, eventType: eventType, rssi: rssi, data: data,
                                  disposition: outcome.disposition, fragments: outcome.payload?.fragments ?? outcome.fragment,
                                  reportOctets: octets)
    }

    /// "1 fragment", "3 fragments".
    static func fragments(_ count: Int) -> String { count == 1 ? "1 fragment" : "\(count) fragments" }

    /// Counts a report of `address` (unless `counts` is false) and learns its RSSI, whether it
    /// is connectable, and its name.
    mutating func seeAdvertiser(_ address: BluetoothAddress, type: LEAddressType, rssi: Int8?, connectable: Bool,
                                name: String?, record: Int, counts: Bool = true) {
        devices.update(address, default: SeenDevice(address: address, addressType: type.description, firstRecord: record)) { device in
            if counts { device.advertisingReports += 1 }
            if let rssi { device.lastRSSI = rssi }
            device.connectable = device.connectable || connectable
            if let name, !name.isEmpty { device.name = name }
        }
    }
}
