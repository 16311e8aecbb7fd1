import ATT
import BLECore

/// What a whole capture showed, for the end of `blectl decode`: the devices seen with their
/// names, the connections, the ATT PDU counts by opcode, and the GATT table reconstructed for
/// each connection.
public struct CaptureReport: Sendable {
    /// One device: an advertiser, or the peer of a connection.
    public struct Device: Sendable {
        public var address: BluetoothAddress
        public var addressType: String
        public var name: String?
        public var advertisingReports: Int
        /// The last RSSI reported, in dBm.
        public var lastRSSI: Int8?
        public var connectable: Bool
    }

    /// One connection (or, for a handle that carried data with no connection event in the
    /// capture, that handle's traffic).
    public struct Connection: Sendable {
        public var link: LinkID
        public var peerAddress: BluetoothAddress?
        public var peerAddressType: String?
        public var peerName: String?
        /// The local controller's role, when an LE Connection Complete event said it.
        public var role: String?
        public var firstRecord: Int
        public var lastRecord: Int
        /// Whether a connection event (LE Connection Complete or CONNECT_IND) was in the capture.
        public var connectionEventSeen: Bool
        public var disconnectReason: String?
        public var encrypted: Bool
        /// ATT_MTU after Exchange MTU, when the capture held it.
        public var attMTU: Int?
        public var attPDUs: Int
        public var gatt: ReconstructedGATTTable
    }

    public var recordCount: Int
    public var firstTimestamp: Int64?
    public var lastTimestamp: Int64?
    public var malformedCount: Int
    public var hciCommands: Int
    public var hciEvents: Int
    public var aclPackets: Int
    public var linkLayerPackets: Int
    public var smpPDUs: Int
    public var signalingPDUs: Int
    public var devices: [Device]
    public var connections: [Connection]
    /// Entries evicted from the dissector's bounded tables (``Dissector/Limits``), least
    /// recently used first: all 0 for any ordinary capture. A device, link, controller or air
    /// connection seen again after its eviction starts afresh (and is counted again here).
    public struct Evictions: Sendable, Hashable {
        public var devices = 0
        public var links = 0
        public var controllers = 0
        public var airConnections = 0
        public var total: Int { devices + links + controllers + airConnections }
    }

    /// What was evicted to keep memory bounded.
    public var evictions: Evictions
    /// Ended connections not listed, past ``Dissector/Limits/listedEndedLinks``.
    public var unlistedConnections: Int
    /// ATT PDUs by opcode, ascending; malformed PDUs count under their opcode octet.
    public var attCounts: [(opcode: ATTOpcode, count: Int)]

    /// The report as text lines.
    public var renderedLines: [String] {
        var lines = ["", "Summary"]
        var records = "  records: \(recordCount)"
        var kinds: [String] = []
        func count(_ n: Int, _ kind: String) { if n > 0 { kinds.append("\(n) \(kind)\(n == 1 ? "" : "s")") } }
        count(hciCommands, "HCI command")
        count(hciEvents, "HCI event")
        count(aclPackets, "ACL packet")
        count(linkLayerPackets, "link-layer packet")
        if !kinds.isEmpty { records += " (" + kinds.joined(separator: ", ") + ")" }
        lines.append(records)
        if let first = firstTimestamp, let last = lastTimestamp {
            let (span, overflow) = last.subtractingReportingOverflow(first)
            lines.append("  time: \(CaptureText.utc(first)) to \(CaptureText.utc(last))"
                         + (overflow ? "" : " (\(CaptureText.seconds(span)) s)"))
        }
        lines.append("  malformed packets: \(malformedCount)")
        lines.append("  devices seen: \(devices.count)")
        for d in devices {
            var text = "    \(d.address) (\(d.addressType))"
            if let name = d.name { text += " " + CaptureText.quoted(name) }
            if d.advertisingReports > 0 { text += ", \(d.advertisingReports) advertising report\(d.advertisingReports == 1 ? "" : "s")" }
            if let rssi = d.lastRSSI { text += ", last RSSI \(rssi) dBm" }
            if d.connectable { text += ", connectable" }
            lines.append(text)
        }
        lines.append("  connections: \(connections.count)" + (unlistedConnections > 0 ? " listed, \(unlistedConnections) more ended and not listed" : ""))
        for c in connections { lines.append("    " + c.summary) }
        lines.append("  ATT PDUs: \(attCounts.reduce(0) { $0 + $1.count })")
        for (opcode, count) in attCounts {
            let label = "0x" + Hex.encode([opcode.rawValue]) + " " + opcode.name
            lines.append("    " + label.padding(to: 46) + String(count).leftPadded(to: 6))
        }
        if smpPDUs > 0 { lines.append("  SMP PDUs: \(smpPDUs)") }
        if evictions.total > 0 {
            lines.append("  state dropped to keep memory bounded (least recently used first): \(evictions.devices) devices, "
                         + "\(evictions.links) links, \(evictions.controllers) controllers, \(evictions.airConnections) over-the-air connections; "
                         + "a device or link seen again afterwards starts afresh")
        }
        if signalingPDUs > 0 { lines.append("  LE signaling PDUs: \(signalingPDUs)") }
        for c in connections where !c.gatt.isEmpty {
            var title = "  GATT table, \(c.link)"
            if let peer = c.peerAddress { title += " (\(peer)\(c.peerName.map { " " + CaptureText.quoted($0) } ?? ""))" }
            lines.append(title + ":")
            lines += c.gatt.renderedLines().map { "    " + $0 }
        }
        return lines
    }
}

extension CaptureReport.Connection {
    /// "hci0 handle 0x0040: central with D0:0D:FE:ED:48:52 (random) "LinuxBLE HR", frames 43-221, ..."
    /// (frames count from 1, as Wireshark numbers them).
    public var summary: String {
        var text = "\(link):"
        if let role { text += " \(role)" }
        if let peer = peerAddress {
            text += " with \(peer)"
            if let type = peerAddressType { text += " (\(type))" }
            if let name = peerName { text += " " + CaptureText.quoted(name) }
        }
        if !connectionEventSeen { text += " (no connection event in the capture)" }
        text += ", frames \(firstRecord + 1)-\(lastRecord + 1)"
        if let mtu = attMTU { text += ", ATT_MTU \(mtu)" }
        text += ", \(attPDUs) ATT PDU\(attPDUs == 1 ? "" : "s")"
        if encrypted { text += ", encrypted" }
        if let reason = disconnectReason { text += ", disconnected: \(reason)" }
        return text
    }
}

extension Dissector {
    /// What the capture showed so far.
    public var report: CaptureReport {
        let devices = self.devices.values.sorted { ($0.firstRecord, $0.address) < ($1.firstRecord, $1.address) }.map {
            CaptureReport.Device(address: $0.address, addressType: $0.addressType, name: $0.name,
                                 advertisingReports: $0.advertisingReports, lastRSSI: $0.lastRSSI, connectable: $0.connectable)
        }
        let all = (ended + links.values).filter { $0.connectionEventSeen || $0.attPDUCount > 0 }
            .sorted { ($0.firstRecord, $0.id) < ($1.firstRecord, $1.id) }
        let connections = all.map { link in
            CaptureReport.Connection(
                link: link.id, peerAddress: link.peerAddress, peerAddressType: link.peerAddressType,
                peerName: link.gatt.deviceName ?? link.peerAddress.flatMap { self.devices[$0]?.name },
                role: link.role, firstRecord: link.firstRecord, lastRecord: link.lastRecord,
                connectionEventSeen: link.connectionEventSeen, disconnectReason: link.disconnectReason,
                encrypted: link.isEncrypted, attMTU: link.attMTU, attPDUs: link.attPDUCount, gatt: link.gatt)
        }
        return CaptureReport(
            recordCount: counts.records, firstTimestamp: firstTimestamp, lastTimestamp: lastTimestamp,
            malformedCount: counts.malformed, hciCommands: counts.hciCommands, hciEvents: counts.hciEvents,
            aclPackets: counts.acl, linkLayerPackets: counts.linkLayer, smpPDUs: counts.smp,
            signalingPDUs: counts.signaling, devices: devices, connections: connections,
            evictions: CaptureReport.Evictions(devices: self.devices.evictedCount, links: links.evictedCount,
                                               controllers: controllers.evictedCount, airConnections: air.connections.evictedCount),
            unlistedConnections: unlistedEndedLinks,
            attCounts: counts.attByOpcode.sorted { $0.key < $1.key }.map { (ATTOpcode(rawValue: $0.key), $0.value) })
    }
}

extension String {
    func padding(to width: Int) -> String {
        count >= width ? self : self + String(repeating: " ", count: width - count)
    }
}
